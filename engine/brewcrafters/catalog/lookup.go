package catalog

import "strings"

// WorkerID resolves a worker's id or its code without underscores
// (HEADBREWER is HEAD_BREWER: the code the mails show, issue 22).
func (r *Rules) WorkerID(t string) string {
	if r.Workers[t] != nil {
		return t
	}
	for _, w := range r.Worker {
		if ShortCode(w.ID) == t {
			return w.ID
		}
	}
	return t
}

// RecipeID resolves a recipe id or card name without spaces.
func (r *Rules) RecipeID(t string) string {
	if r.Recipes[t] != nil {
		return t
	}
	norm := func(x string) string {
		var b strings.Builder
		for _, c := range strings.ToUpper(x) {
			if c >= 'A' && c <= 'Z' {
				b.WriteRune(c)
			}
		}
		return b.String()
	}
	nt := norm(t)
	for _, rc := range r.Recipe {
		if norm(rc.Name) == nt {
			return rc.ID
		}
	}
	return ""
}

func (r *Rules) BldID(t string) string {
	if a, ok := BldAliases[t]; ok {
		return a
	}
	if r.Buildings[t] != nil {
		return t
	}
	for _, b := range r.Building {
		if ShortCode(b.ID) == t {
			return b.ID
		}
	}
	return ""
}

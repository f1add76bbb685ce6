package referee

import (
	"log/slog"

	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Renderer is the tell stage's renderer (package referee/tell) as the
// core uses it: every room renders its words through it (ctx).
type Renderer struct{ *tell.Renderer }

// Reader is who a rendering is for (tell.Reader).
type Reader = tell.Reader

// NewRenderer loads the embedded templates.
func NewRenderer() (*Renderer, error) {
	r, err := tell.NewRenderer()
	if err != nil {
		return nil, err
	}
	return &Renderer{r}, nil
}

// text renders template name of scope for rd. A template that fails to
// render (a template's bug, never the reader's doing) is logged for the
// keeper and read as the fixed words of templates.Set.Internal, in rd's
// language: no error's own text reaches a reader (issue 25).
func (r *Renderer) text(log *slog.Logger, scope string, rd Reader, name string, data any) string {
	s, err := r.T.Render(scope, rd.Lang, name, r.ctx(rd, data))
	if err != nil {
		return r.failed(log, rd.Lang, scope+" "+name, err)
	}
	return s
}

// failed logs what failed to render and returns the reader's fixed words.
func (r *Renderer) failed(log *slog.Logger, lang, what string, err error) string {
	log.Error("a template failed to render: the reader got internal.error", "what", what, "lang", lang, "err", err)
	return r.T.Internal(lang)
}

// ctx is the template context of a rendering for rd.
func (r *Renderer) ctx(rd Reader, data any) templates.Ctx {
	if r == nil {
		return (*tell.Renderer)(nil).Ctx(rd, data)
	}
	return r.Renderer.Ctx(rd, data)
}

package referee

import (
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

// ctx is the template context of a rendering for rd.
func (r *Renderer) ctx(rd Reader, data any) templates.Ctx {
	if r == nil {
		return (*tell.Renderer)(nil).Ctx(rd, data)
	}
	return r.Renderer.Ctx(rd, data)
}

package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/pycompat"
)

// XAPIVersion is a custom versioning scheme: the version is the
// X-API-Version header, whatever its value, even empty, and the default
// without it.
type XAPIVersion struct{}

// DetermineVersion reads the header; no value is refused.
func (XAPIVersion) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	if v, sent := xAPIVersion(r); sent {
		return v, nil
	}
	return c.Default, nil
}

// xAPIVersion returns the X-API-Version header as the reference reads it,
// request.META's text, and whether the request has one.
func xAPIVersion(r *request.Request) (string, bool) {
	v, sent := pycompat.HeaderValue(r.Header, "X-API-Version")
	return pycompat.HeaderText(v), sent
}

// info is the answer of the /…/info/ routes.
type info struct {
	Version *string `json:"version"`
	Self    string  `json:"self"`
}

// versionInfo answers the version, as the scheme determines it, and the
// version-aware absolute URL of the route that matched.
func versionInfo(name string, scheme request.Versioner) framework.View {
	return framework.View{
		Name:       name,
		Versioning: scheme,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			m, _ := reverse.MatchOf(r.Request)
			self, err := reverse.Reverse(m.Name, nil, r)
			if err != nil {
				return nil, err
			}
			version := nullable(r.Version())
			if _, sent := xAPIVersion(r); sent && r.VersioningScheme() == request.Versioner(XAPIVersion{}) {
				// The header's version, even "": DRF's None is only no header
				// with no default.
				v := r.Version()
				version = &v
			}
			return framework.OK(info{Version: version, Self: self}), nil
		},
	}
}

// nullable is nil for "", so that JSON shows null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

package sample

import (
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// XAPIVersion is a custom versioning scheme: the version is the
// X-API-Version header, whatever its value, and the default without it.
type XAPIVersion struct{}

// DetermineVersion reads the header; no value is refused.
func (XAPIVersion) DetermineVersion(r *request.Request, c framework.VersionConfig) (string, error) {
	if v := r.Header.Values("X-API-Version"); len(v) > 0 {
		return v[0], nil
	}
	return c.Default, nil
}

// info is the answer of the /…/info/ routes.
type info struct {
	Version *string `json:"version"`
	Self    string  `json:"self"`
}

// versionInfo answers the version, as the scheme determines it, and the
// version-aware absolute URL of the route that matched.
func versionInfo(name string, scheme framework.Versioner) framework.View {
	return framework.View{
		Name:       name,
		Versioning: scheme,
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			m, _ := reverse.MatchOf(r.Request)
			self, err := reverse.Reverse(m.Name, nil, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(info{Version: nullable(r.Version()), Self: self}), nil
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

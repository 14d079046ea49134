package versioning_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
)

// HeaderVersioning is a custom scheme: the version is the X-API-Version
// request header, any value, or the default version when the header is
// absent. It implements request.Versioner only: the version is not in
// the URL, so reversed URLs need no change (a URL-based scheme would also
// implement reverse.Hook).
type HeaderVersioning struct{}

// DetermineVersion returns the X-API-Version header, or the default.
func (HeaderVersioning) DetermineVersion(r *request.Request, c request.VersionConfig) (string, error) {
	if vs := r.Header.Values("X-API-Version"); len(vs) > 0 {
		return vs[0], nil
	}
	return c.Default, nil
}

// A custom scheme reading the X-API-Version header, as the sample's
// /custom/info/ route does: any value is accepted, and a request without
// the header gets the default version.
func Example_customScheme() {
	api := framework.NewAPI(nil, framework.Settings{DefaultVersion: "v1", AllowedVersions: framework.Versions("v1", "v2")})
	api.Handle("/custom/info/", framework.View{
		Versioning: HeaderVersioning{},
		Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
			self, err := reverse.Reverse("custom-info", nil, r)
			if err != nil {
				return nil, err
			}
			return framework.OK(struct {
				Version string `json:"version"`
				Self    string `json:"self"`
			}{r.Version(), self}), nil
		},
	}, framework.Named("custom-info"))
	srv := httptest.NewServer(api)
	defer srv.Close()

	for _, version := range []string{"", "v9"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/custom/info/", nil)
		req.Host = "api.example.com"
		if version != "" {
			req.Header.Set("X-API-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(body))
	}
	// Output:
	// 200 {"version":"v1","self":"http://api.example.com/custom/info/"}
	// 200 {"version":"v9","self":"http://api.example.com/custom/info/"}
}

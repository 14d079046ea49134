package apitest_test

import (
	"net/http"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// echo answers what the request carried.
func echo(v *framework.View, r *request.Request) (*framework.Response, error) {
	data, err := r.Data()
	if err != nil {
		return nil, err
	}
	ck, _ := r.Cookie("seen")
	return framework.OK(map[string]any{"host": r.Host, "x": r.Header.Get("X-A"), "data": data, "cookie": ck != nil, "tls": r.TLS != nil}), nil
}

func TestClient(t *testing.T) {
	api := framework.NewAPI(nil, framework.Settings{})
	api.Handle("/echo/", framework.View{Get: echo, Post: echo})
	api.HandleHTTP("/set/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "seen", Value: "1", Path: "/"})
	}))
	c := apitest.New(t, api)
	c.Header.Set("X-A", "default")

	got := c.Post("/echo/", `{"n":1}`).JSON()
	if got["host"] != "testserver" || got["x"] != "default" || got["data"].(map[string]any)["n"] != 1.0 || got["cookie"] != false {
		t.Errorf("post: %v", got)
	}
	if r := c.Post("/echo/", "n=2", "Content-Type: application/x-www-form-urlencoded", "X-A: own", "Host: api.example.com"); r.Status != 200 {
		t.Errorf("form: %d %s", r.Status, r.Body)
	} else if got := r.JSON(); got["host"] != "api.example.com" || got["x"] != "own" {
		t.Errorf("form: %v", got)
	}
	if ck := c.Get("/set/").Cookies(); len(ck) != 1 || ck[0].Name != "seen" || ck[0].Value != "1" {
		t.Errorf("set cookies: %v", ck)
	}
	if c.Cookie("seen") != "1" || c.Get("/echo/").JSON()["cookie"] != true {
		t.Error("the cookie was not kept and sent back")
	}
	c.Secure = true
	if got := c.Get("/echo/").JSON(); got["tls"] != true || got["cookie"] != true {
		t.Errorf("secure: %v", got)
	}
	c.Jar = nil
	if got := c.Get("/echo/").JSON(); got["cookie"] != false {
		t.Errorf("without a jar: %v", got)
	}
	if r := c.Get("/echo"); r.Status != 301 || r.Header.Get("Location") != "/echo/" {
		t.Errorf("redirects are answers: %d %v", r.Status, r.Header)
	}
}

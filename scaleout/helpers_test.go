package scaleout_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// deployment is one PostgreSQL database and one Redis that instances share.
type deployment struct {
	database, cache string
}

// newDeployment starts what instances share: a fresh PostgreSQL database
// and a redis-server of the test's own.
func newDeployment(t *testing.T) *deployment {
	return &deployment{database: testservers.Postgres(t), cache: testservers.StartRedis(t).URL}
}

// instance is one instance of the sample.
type instance struct {
	*testservers.Runserver
	base string
}

// startTwo starts two instances at once on the deployment's empty
// database, configured only by their environment, as a deployment would:
// DATABASE_URL, CACHE_URL and a SECRET_KEY common to all instances. Both
// migrate (one waits for the other's migration lock) and load the demo
// data into the database if it has no users yet.
func (d *deployment) startTwo(t *testing.T) (a, b *instance) {
	t.Helper()
	env := []string{"DATABASE_URL=" + d.database, "CACHE_URL=" + d.cache,
		"SECRET_KEY=scaleout-test-secret-key-shared-by-every-instance"}
	var servers [2]*testservers.Runserver
	var wg sync.WaitGroup
	for i := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			servers[i] = testservers.StartRunserver(t, env...)
		}()
	}
	wg.Wait()
	if servers[0] == nil || servers[1] == nil {
		t.FailNow()
	}
	return &instance{servers[0], servers[0].URL}, &instance{servers[1], servers[1].URL}
}

var httpClient = &http.Client{
	Transport: &http.Transport{MaxIdleConnsPerHost: 32},
	Timeout:   30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// reply is an answer: status, headers and body.
type reply struct {
	status int
	header http.Header
	body   string
}

// send sends a request to the instance; header holds name, value pairs.
func (in *instance) send(t *testing.T, method, path, body string, header ...string) reply {
	t.Helper()
	r, err := in.trySend(method, path, body, header...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (in *instance) trySend(method, path, body string, header ...string) (reply, error) {
	req, err := http.NewRequest(method, in.base+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	if strings.HasPrefix(body, "{") {
		req.Header.Set("Content-Type", "application/json")
	} else if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: string(b)}, err
}

// token obtains user's token from the instance.
func (in *instance) token(t *testing.T, user string) string {
	t.Helper()
	r := in.send(t, "POST", "/api-token-auth/", fmt.Sprintf(`{"username":%q,"password":"%s-pass"}`, user, user))
	var got struct{ Token string }
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil || got.Token == "" {
		t.Fatalf("obtaining %s's token: %d %s", user, r.status, r.body)
	}
	return got.Token
}

// cookie returns the value of the cookie name that r sets, "" if none.
func cookie(r reply, name string) string {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// login logs user in through the instance's login form and returns the
// browser's cookies: sessionid and csrftoken.
func (in *instance) login(t *testing.T, user string) map[string]string {
	t.Helper()
	page := in.send(t, "GET", "/api-auth/login/", "")
	csrf := cookie(page, "csrftoken")
	form := url.Values{"csrfmiddlewaretoken": {csrf}, "username": {user}, "password": {user + "-pass"}, "next": {""}}
	r := in.send(t, "POST", "/api-auth/login/", form.Encode(), "Cookie", "csrftoken="+csrf)
	session := cookie(r, "sessionid")
	if r.status != http.StatusFound || session == "" {
		t.Fatalf("logging %s in: %d %v", user, r.status, r.header.Values("Set-Cookie"))
	}
	if c := cookie(r, "csrftoken"); c != "" {
		csrf = c
	}
	return map[string]string{"sessionid": session, "csrftoken": csrf}
}

// cookieHeader is the Cookie header of a browser's cookies.
func cookieHeader(jar map[string]string) string {
	parts := make([]string, 0, len(jar))
	for k, v := range jar {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, "; ")
}

package scaleout_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/internal/testservers"
)

var (
	manageOnce sync.Once
	manageDir  string
	manageBin  string
	manageErr  error
)

func TestMain(m *testing.M) {
	code := testservers.Main(m)
	if manageDir != "" {
		_ = os.RemoveAll(manageDir)
	}
	os.Exit(code)
}

// manageBinary builds cmd/manage once per run and returns its path.
func manageBinary(t *testing.T) string {
	t.Helper()
	manageOnce.Do(func() {
		if manageDir, manageErr = os.MkdirTemp("", "scaleout-manage-"); manageErr != nil {
			return
		}
		manageBin = filepath.Join(manageDir, "manage")
		cmd := exec.Command("go", "build", "-o", manageBin, "github.com/go-drf/drf/cmd/manage")
		if out, err := cmd.CombinedOutput(); err != nil {
			manageErr = fmt.Errorf("go build ./cmd/manage: %v\n%s", err, out)
		}
	})
	if manageErr != nil {
		t.Fatal(manageErr)
	}
	return manageBin
}

// deployment is one PostgreSQL database and one Redis that instances share.
type deployment struct {
	database, cache string
}

// newDeployment starts what instances share: a fresh PostgreSQL database
// and a redis-server of the test's own.
func newDeployment(t *testing.T) *deployment {
	return &deployment{database: testservers.Postgres(t), cache: testservers.StartRedis(t).URL}
}

// instance is a running "manage runserver" process.
type instance struct {
	cmd    *exec.Cmd
	base   string
	output *lockedBuffer
	done   chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var started = regexp.MustCompile(`(?m)^Starting development server at (http://\S+)/$`)

// start runs an instance configured only by its environment, as a
// deployment would: DATABASE_URL, CACHE_URL and a SECRET_KEY common to all
// instances. The first instance of a deployment migrates the database and
// loads the demo data; start the others once it listens.
func (d *deployment) start(t *testing.T) *instance {
	t.Helper()
	cmd := exec.Command(manageBinary(t), "runserver", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+d.database, "CACHE_URL="+d.cache,
		"SECRET_KEY=scaleout-test-secret-key-shared-by-every-instance")
	in := &instance{cmd: cmd, output: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = in.output, in.output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(in.done)
	}()
	t.Cleanup(in.kill)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if m := started.FindStringSubmatch(in.output.String()); m != nil {
			in.base = m[1]
			return in
		}
		select {
		case <-in.done:
			t.Fatalf("runserver exited before listening:\n%s", in.output.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("runserver did not start:\n%s", in.output.String())
		}
	}
}

// kill ends the instance with SIGKILL and waits for it.
func (in *instance) kill() {
	_ = in.cmd.Process.Kill()
	<-in.done
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

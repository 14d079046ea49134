package management_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/management"
)

type server struct {
	addr   string
	done   chan int
	cancel context.CancelFunc
	out    *syncBuffer
	errOut *syncBuffer
}

// startServer runs "runserver ADDR" in the background and waits until it
// listens.
func startServer(t *testing.T, h http.Handler, addr string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{done: make(chan int, 1), cancel: cancel, out: &syncBuffer{}, errOut: &syncBuffer{}}
	started := make(chan string, 1)
	cmd := management.Runserver(
		func(ctx context.Context, env *management.Env) (http.Handler, error) { return h, nil },
		func(env *management.Env, addr string) { started <- addr },
	)
	env := &management.Env{Stdout: s.out, Stderr: s.errOut, Stdin: strings.NewReader("")}
	go func() {
		s.done <- management.Execute(ctx, env, []string{"--database", ":memory:", "runserver", addr}, cmd)
	}()
	select {
	case s.addr = <-started:
	case code := <-s.done:
		t.Fatalf("runserver exited %d: %s", code, s.errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("runserver did not start")
	}
	t.Cleanup(cancel)
	return s
}

func (s *server) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.done:
		return code
	case <-time.After(15 * time.Second):
		t.Fatal("runserver did not stop")
		return -1
	}
}

func TestRunserverServesLogsAndStops(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hi") })
	s := startServer(t, mux, "127.0.0.1:0")
	if !regexp.MustCompile(`^127\.0\.0\.1:\d+$`).MatchString(s.addr) || strings.HasSuffix(s.addr, ":0") {
		t.Fatalf("bound address %q", s.addr)
	}
	req, _ := http.NewRequest("GET", "http://"+s.addr+"/hello/?token=secret123", nil)
	req.Header.Set("Authorization", "Token hidden-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "hi" {
		t.Errorf("GET /hello/: %d %q", resp.StatusCode, body)
	}
	resp, err = http.Get("http://" + s.addr + "/missing/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d, stderr %s", code, s.errOut.String())
	}
	want := "Starting development server at http://" + s.addr + "/\nQuit the server with CONTROL-C.\n"
	if s.out.String() != want {
		t.Errorf("stdout %q, want %q", s.out.String(), want)
	}
	logs := s.errOut.String()
	for _, re := range []string{
		`msg=request method=GET route="" status=200 duration=\S+ version="" request_id=[0-9a-f]{32}\n`,
		`msg=request method=GET route="" status=404 duration=\S+ version="" request_id=[0-9a-f]{32}\n`,
		`msg="shutting down"`,
	} {
		if !regexp.MustCompile(re).MatchString(logs) {
			t.Errorf("logs lack %s:\n%s", re, logs)
		}
	}
	for _, secret := range []string{"secret123", "hidden-key", "Authorization"} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain %q:\n%s", secret, logs)
		}
	}
	if _, err := http.Get("http://" + s.addr + "/hello/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

func TestRunserverDrainsInFlightRequests(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "done")
	})
	s := startServer(t, h, "127.0.0.1:0")
	type answer struct {
		status int
		body   string
		err    error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := http.Post("http://"+s.addr+"/slow/", "text/plain", nil)
		if err != nil {
			got <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- answer{resp.StatusCode, string(b), err}
	}()
	<-entered
	s.cancel()
	// Shutdown has begun: new connections are refused while the slow
	// request is still being served.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener stayed open after the context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	a := <-got
	if a.err != nil || a.status != http.StatusCreated || a.body != "done" {
		t.Errorf("in-flight request: %d %q %v", a.status, a.body, a.err)
	}
	if code := <-s.done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestRunserverAddresses(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"runserver", "abc"}, 1, "CommandError: \"abc\" is not a valid port number or address:port pair.\n"},
		{[]string{"runserver", "127.0.0.1:99999"}, 1, "CommandError: \"127.0.0.1:99999\" is not a valid port number or address:port pair.\n"},
		{[]string{"runserver", ":8000"}, 1, "CommandError: \":8000\" is not a valid port number or address:port pair.\n"},
		{[]string{"runserver", "[zz]:80"}, 1, "CommandError: \"[zz]:80\" is not a valid port number or address:port pair.\n"},
		{[]string{"runserver", "1", "2"}, 2, "manage runserver: unexpected argument 2\nusage: manage runserver [ADDR]\n"},
	}
	built := false
	cmd := management.Runserver(func(ctx context.Context, env *management.Env) (http.Handler, error) {
		built = true
		return http.NotFoundHandler(), nil
	}, nil)
	for _, c := range cases {
		r := run(t, nil, "", c.args, cmd)
		if r.code != c.code || r.stderr != c.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, r.code, r.stderr, c.code, c.stderr)
		}
	}
	if built {
		t.Error("the handler was built for a bad command line")
	}
}

func TestRunserverPortInUseAndHandlerError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ok := management.Runserver(func(ctx context.Context, env *management.Env) (http.Handler, error) {
		return http.NotFoundHandler(), nil
	}, nil)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	// PORT alone means 127.0.0.1:PORT.
	r := run(t, nil, "", []string{"runserver", port}, ok)
	if r.code != 1 || r.stderr != "CommandError: Error: That port is already in use.\n" {
		t.Errorf("port in use: exit %d, stderr %q", r.code, r.stderr)
	}
	failing := management.Runserver(func(ctx context.Context, env *management.Env) (http.Handler, error) {
		return nil, errors.New("no settings")
	}, nil)
	r = run(t, nil, "", []string{"runserver", "127.0.0.1:0"}, failing)
	if r.code != 1 || r.stderr != "manage runserver: no settings\n" {
		t.Errorf("handler error: exit %d, stderr %q", r.code, r.stderr)
	}
}

package management_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRunserverWritesRequestLinesWhileServing: the request log is
// buffered, yet its lines come out while the server runs, not only when it
// stops.
func TestRunserverWritesRequestLinesWhileServing(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hi") })
	s := startServer(t, h, "127.0.0.1:0")
	resp, err := http.Get("http://" + s.addr + "/seen/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.errOut.String(), "msg=request method=GET route=\"\" status=200") {
		if time.Now().After(deadline) {
			t.Fatalf("no request line while serving:\n%s", s.errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}

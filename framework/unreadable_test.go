package framework_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
)

// lockedLog is a log output safe to read while the server writes it.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestUnreadableBodyIsAFixedParseError sends half of a body and stops, so
// that the server's read timeout cuts it off: whatever the parser, the
// answer is 400 with a fixed detail that does not carry the network error
// (which names the server's address), and the error is logged.
func TestUnreadableBodyIsAFixedParseError(t *testing.T) {
	logs := &lockedLog{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, nil)))
	defer slog.SetDefault(prev)
	v := framework.View{Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		return framework.OK(data), nil
	}}
	srv := httptest.NewUnstartedServer(apitest.View(v))
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	for _, c := range []struct{ contentType, half string }{
		{"application/json", `{"title": "cut`},
		{"application/x-www-form-urlencoded", "title=cut"},
		{"multipart/form-data; boundary=xx", "--xx\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\ncut"},
	} {
		t.Run(c.contentType, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			_, err = io.WriteString(conn, "POST / HTTP/1.1\r\nHost: testserver\r\nContent-Type: "+c.contentType+
				"\r\nContent-Length: 1000\r\n\r\n"+c.half)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ Detail string }
			raw, _ := io.ReadAll(resp.Body)
			_ = json.Unmarshal(raw, &body)
			if resp.StatusCode != http.StatusBadRequest || body.Detail != "The request body could not be read." {
				t.Fatalf("%d %s, want 400 %q", resp.StatusCode, raw, "The request body could not be read.")
			}
			if log := logs.String(); !strings.Contains(log, "request body unreadable") || !strings.Contains(log, "i/o timeout") {
				t.Errorf("the read error is not logged: %q", log)
			}
		})
	}
}

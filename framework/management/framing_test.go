package management_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is a handler that answers 200 with the body it read, and
// remembers each request's method, path and body.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec.mu.Lock()
	rec.seen = append(rec.seen, r.Method+" "+r.URL.Path+" "+string(b))
	rec.mu.Unlock()
	_, _ = w.Write(b)
}

func (rec *recorder) take() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	seen := rec.seen
	rec.seen = nil
	return seen
}

// exchange sends raw on a connection of its own to addr and reads the
// answers until the server closes the connection or, if it keeps it,
// until it has been quiet for a while; closed reports which.
func exchange(t *testing.T, addr, raw string) (answers []*http.Response, bodies []string, closed bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	for {
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := br.Peek(1); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return answers, bodies, false
			}
			return answers, bodies, true
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("reading answer %d: %v", len(answers)+1, err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading answer %d's body: %v", len(answers)+1, err)
		}
		answers, bodies = append(answers, resp), append(bodies, string(b))
	}
}

// TestFaultyFramingIsRefusedAndCloses: over a raw connection to
// runserver's server, a request carrying both Transfer-Encoding: chunked
// and Content-Length (or Transfer-Encoding in HTTP/1.0) is answered 400
// with Connection: close and the connection ends, as gunicorn does: what
// follows its chunked body, which a proxy reading its Content-Length
// would send as a request of its own, never runs, and neither does the
// request. Requests before it on the connection are served; well-framed
// requests keep the connection, whatever their bodies hold.
func TestFaultyFramingIsRefusedAndCloses(t *testing.T) {
	rec := &recorder{}
	s := startServer(t, rec, "127.0.0.1:0")
	smuggled := "GET /smuggled/ HTTP/1.1\r\nHost: x\r\n\r\n"
	// A body that looks like a faulty request is a body.
	lookalike := "GET / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
	for _, tc := range []struct {
		name   string
		raw    string
		served []string // the requests the handler saw
		status []int    // the answers, the last one 400 if the connection closes
	}{
		{"Content-Length then Transfer-Encoding",
			"POST /a/ HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
			nil, []int{400}},
		{"Transfer-Encoding then Content-Length, in other cases",
			"POST /a/ HTTP/1.1\r\nHost: x\r\ntransfer-encoding: Chunked\r\ncontent-length: 0\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + smuggled,
			nil, []int{400}},
		{"Transfer-Encoding in HTTP/1.0, kept alive",
			"POST /a/ HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}" + smuggled,
			nil, []int{400}},
		{"after a request served",
			"GET /first/ HTTP/1.1\r\nHost: x\r\n\r\nPOST /a/ HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
			[]string{"GET /first/ "}, []int{200, 400}},
		{"well-framed requests on one connection",
			"POST /chunked/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;name=value\r\nabcd\r\n3  \r\nefg\r\n0\r\nX-Trailer: 1\r\n\r\n" +
				"POST /length/ HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(lookalike)) + "\r\n\r\n" + lookalike +
				// net/http skips a CRLF after a POST's body.
				"\r\nOPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n" +
				"GET /last/ HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok",
			[]string{"POST /chunked/ abcdefg", "POST /length/ " + lookalike, "OPTIONS * ", "GET /last/ ok"},
			[]int{200, 200, 200, 200}},
	} {
		answers, bodies, closed := exchange(t, s.addr, tc.raw)
		var statuses []int
		for _, a := range answers {
			statuses = append(statuses, a.StatusCode)
		}
		if !slices.Equal(statuses, tc.status) {
			t.Errorf("%s: answers %v %q, want %v", tc.name, statuses, bodies, tc.status)
		}
		if seen := rec.take(); !slices.Equal(seen, tc.served) {
			t.Errorf("%s: the handler served %q, want %q", tc.name, seen, tc.served)
		}
		if refused := tc.status[len(tc.status)-1] == 400; closed != refused {
			t.Errorf("%s: connection closed: %v, want %v", tc.name, closed, refused)
		}
		if last := answers[len(answers)-1]; tc.status[len(tc.status)-1] == 400 && (!last.Close || bodies[len(bodies)-1] != "400 Bad Request") {
			t.Errorf("%s: refused with %v %q", tc.name, last.Header, bodies[len(bodies)-1])
		}
	}
	// The refusal is logged as any answer.
	s.stop(t)
	if log := s.errOut.String(); !strings.Contains(log, `method=POST route="" status=400`) {
		t.Errorf("log:\n%s", log)
	}
}

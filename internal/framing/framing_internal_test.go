package framing

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFramingFollowsRequests: framing counts the requests of a stream as
// net/http's server reads them (a server of net/http serves as many from
// each stream without faulty framing), and finds the first faulty one
// (or the one after bytes it cannot follow), whichever way the stream is
// cut into reads: whole, a byte at a time, and in reads of 7 bytes.
func TestFramingFollowsRequests(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		served.Add(1)
	}))
	defer srv.Close()
	// The last request of a stream sent to net/http: it ends the connection.
	last := "GET /last/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
	get := "GET /x/?q=1 HTTP/1.1\r\nHost: x\r\n\r\n"
	long := "GET /" + strings.Repeat("a", 5000) + " HTTP/1.1\r\nHost: x\r\nCookie: " + strings.Repeat("c", 3000) + "\r\n\r\n"
	for _, tc := range []struct {
		name     string
		stream   string
		requests int
		faulty   int
	}{
		{"pipelined", get + get + long + get, 4, 0},
		{"bare LF lines", "GET / HTTP/1.1\nHost: x\n\n" + get, 2, 0},
		{"a body of Content-Length bytes", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n\r\n\r\nGET /" + get, 2, 0},
		{"equal Content-Lengths", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\ncontent-length:  1 \r\n\r\nx" + get, 2, 0},
		{"chunks, extensions, trailers", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nA;x=\"y\"\r\n0123456789\r\n1 \t\r\n\n\r\n0\r\nA: b\r\nC: d\r\n\r\n" + get, 2, 0},
		{"CR and LF skipped after a POST", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n\r\n\r\n" + get, 2, 0},
		{"a folded header", "GET / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n  c\r\n\r\n" + get, 2, 0},
		{"HTTP/1.0 with a body", "POST / HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}" + get, 2, 0},

		{"Content-Length and Transfer-Encoding", get + "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + get, 2, 2},
		{"Transfer-Encoding and Content-Length: 0", "POST / HTTP/1.1\r\nHost: x\r\nTRANSFER-ENCODING: CHUNKED\r\nContent-Length: 0\r\n\r\n0\r\n\r\n" + get, 1, 1},
		{"Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + get, 1, 1},
		{"an unsupported Transfer-Encoding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + get, 1, 1},
		{"two Transfer-Encodings", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + get, 1, 1},
		{"Content-Lengths that differ", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy" + get, 1, 1},
		{"a signed Content-Length", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\nx" + get, 1, 1},
		{"a Content-Length padded past what is kept", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: " + strings.Repeat(" ", 300) + "1\r\n\r\nx" + get, 1, 1},
		{"a folded Content-Length", "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n 2\r\n\r\nx" + get, 1, 1},
		{"a chunk line ending in a bare LF", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\nx\r\n0\r\n\r\n" + get, 1, 2},
		{"a chunk without its CRLF", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n" + get, 1, 2},
		{"a chunk size of 17 digits", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000001\r\nx\r\n0\r\n\r\n" + get, 1, 2},
		{"too much CR and LF after a POST", "POST / HTTP/1.1\r\nHost: x\r\n\r\n\r\n\r\n\r\n" + get, 1, 2},
		{"a bad version", "GET / HTTP/1.1x\r\n\r\n" + get, 0, 1},
		{"a request line of three spaces", "GET / x HTTP/1.1\r\nHost: x\r\n\r\n" + get, 0, 1},
	} {
		for _, size := range []int{len(tc.stream), 1, 7} {
			var f framing
			for s := tc.stream; len(s) > 0; {
				n := min(size, len(s))
				f.feed([]byte(s[:n]))
				s = s[n:]
			}
			if f.requests != tc.requests || f.faulty != tc.faulty {
				t.Errorf("%s, in reads of %d: %d requests, faulty %d; want %d, %d", tc.name, size, f.requests, f.faulty, tc.requests, tc.faulty)
			}
		}
		if tc.faulty == 0 {
			served.Store(0)
			if n := serve(t, srv.Listener.Addr().String(), tc.stream+last, &served); n != int64(tc.requests+1) {
				t.Errorf("%s: net/http served %d requests and the last, framing counts %d", tc.name, n-1, tc.requests)
			}
		}
	}
}

// serve sends stream on a connection to addr and returns how many
// requests were served once the server has closed the connection.
func serve(t *testing.T, addr, stream string, served *atomic.Int64) int64 {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, stream); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.Copy(io.Discard, conn)
	return served.Load()
}

// BenchmarkFraming measures what following a request's framing costs
// runserver per request: a token-authenticated GET as wrk sends it.
//
//	go test -run '^$' -bench Framing -benchmem ./framework/management/
func BenchmarkFraming(b *testing.B) {
	req := []byte("GET /pages/page-number/?page=3 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: wrk\r\n" +
		"Authorization: Token 0123456789abcdef0123456789abcdef01234567\r\nAccept: application/json\r\n\r\n")
	var f framing
	b.SetBytes(int64(len(req)))
	for b.Loop() {
		f.feed(req)
	}
	if f.faulty != 0 {
		b.Fatal("faulty")
	}
}

package conformance

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// rawRequest is one request as it goes on the wire, byte for byte: what
// http.Client cannot send (a broken escape in the path, an empty or a
// repeated header, a method of any name) it can.
type rawRequest struct {
	method string
	target string      // the request line's target: path and query, as sent
	header [][2]string // in order; values may hold the placeholders of side.fill
	body   string
	jar    string // the cookie jar sent and kept; "" sends none
}

// String is the request as a reader would type it with curl in mind.
func (q rawRequest) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", q.method, q.target)
	for _, h := range q.header {
		fmt.Fprintf(&b, "\n    %s: %s", h[0], h[1])
	}
	if q.jar != "" {
		fmt.Fprintf(&b, "\n    (cookies of jar %q)", q.jar)
	}
	if q.body != "" {
		body := q.body
		if len(body) > 300 {
			body = body[:300] + fmt.Sprintf("… (%d bytes)", len(q.body))
		}
		fmt.Fprintf(&b, "\n    body %q", body)
	}
	return b.String()
}

// sendRaw fills in q for this side and sends it on a connection of its
// own, then keeps the jar's cookies.
func (s *side) sendRaw(q rawRequest) (*answer, error) {
	if _, ok := passwords[q.jar]; ok {
		if err := s.login(q.jar, q.jar); err != nil {
			return nil, err
		}
	}
	u, err := url.Parse(s.base)
	if err != nil {
		return nil, err
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s %s HTTP/1.1\r\n", q.method, q.target)
	hasHost := false
	for _, h := range q.header {
		v, err := s.fill(h[1], q.jar)
		if err != nil {
			return nil, err
		}
		hasHost = hasHost || strings.EqualFold(h[0], "Host")
		fmt.Fprintf(&msg, "%s: %s\r\n", h[0], v)
	}
	if !hasHost {
		fmt.Fprintf(&msg, "Host: %s\r\n", u.Host)
	}
	if cookies := s.jars[q.jar]; q.jar != "" && len(cookies) > 0 {
		names := make([]string, 0, len(cookies))
		for name := range cookies {
			names = append(names, name)
		}
		sort.Strings(names)
		pairs := make([]string, len(names))
		for i, name := range names {
			pairs[i] = name + "=" + cookies[name]
		}
		fmt.Fprintf(&msg, "Cookie: %s\r\n", strings.Join(pairs, "; "))
	}
	body, err := s.fill(q.body, q.jar)
	if err != nil {
		return nil, err
	}
	if body != "" || q.method == http.MethodPost || q.method == http.MethodPut || q.method == http.MethodPatch {
		fmt.Fprintf(&msg, "Content-Length: %d\r\n", len(body))
	}
	msg.WriteString("Connection: close\r\n\r\n")
	msg.WriteString(body)

	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(60 * time.Second)); err != nil {
		return nil, err
	}
	// A server may answer before it reads the whole body, and close: the
	// answer counts, not the error of the rest of the write.
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(conn, msg.String())
		wrote <- err
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: q.method})
	if err != nil {
		if werr := <-wrote; werr != nil {
			err = werr
		}
		return nil, fmt.Errorf("%s: reading the answer to %s %s: %v", s.name, q.method, q.target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	s.keep(q.jar, resp)
	a := &answer{status: resp.StatusCode, header: resp.Header, body: b}
	s.last = a
	return a, nil
}

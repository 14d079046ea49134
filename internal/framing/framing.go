// Package framing is runserver's guard against request smuggling and its
// lingering close, on its connections: it follows each connection's
// requests through their bytes (RFC 9112 section 6), as net/http reads
// them, so that a request whose framing is faulty is refused, and ends
// each connection as Apache and nginx do.
package framing

import (
	"bytes"
	"context"
	"io"
	"math"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// A request's framing (RFC 9112 section 6) is faulty when it carries
// Transfer-Encoding together with Content-Length, or carries
// Transfer-Encoding in HTTP/1.0. net/http reads the first by its chunks
// and the second by its Content-Length, and keeps the connection: a proxy
// in front that reads such a request the other way would send what it
// takes for the request's body as a request of its own (request
// smuggling). RFC 9112 has the server close the connection after
// answering it; gunicorn refuses it with 400 and closes. net/http removes
// both headers before a handler runs, so runserver follows each
// connection's requests through its bytes, as net/http reads them, to
// tell which one is faulty, and answers that one 400 and closes.

// Listener returns runserver's listener on l: its connections follow
// their requests' framing (Refuse answers a faulty one 400 and closes it)
// and end with a lingering close, so that a client still sending a body
// the server did not read gets the answer rather than a reset. A server
// of the handler runserver serves, in a test, listens through it to
// answer as runserver does.
func Listener(l net.Listener) net.Listener { return framedListener{l} }

// framedListener is runserver's listener: its connections follow their
// requests' framing.
type framedListener struct{ net.Listener }

// Accept returns the next connection as a *framedConn.
func (l framedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &framedConn{Conn: c}, nil
}

// framedConn is a connection that follows the framing of the requests it
// reads. net/http reads it from the goroutine serving it and, while a
// handler runs, from a goroutine watching for the client to go away, one
// read at a time (its connReader orders them), so f needs no lock (a
// handler that hijacks the connection reads it on one goroutine at a
// time too, as any stream); the handler's goroutine learns of a faulty
// request through faulty.
type framedConn struct {
	net.Conn
	f      framing
	faulty atomic.Int64 // f.faulty, once framing found one
	served int64        // requests handed to the handler (on the goroutine serving the connection)
}

// Read reads from the connection and follows what it read.
func (c *framedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.f.faulty == 0 && n > 0 {
		c.f.feed(p[:n])
		if c.f.faulty != 0 {
			c.faulty.Store(int64(c.f.faulty))
		}
	}
	return n, err
}

// ReadFrom writes what r reads to the connection through its own
// io.ReaderFrom (a TCP connection's sendfile or splice), which net/http
// uses for an answer's body copied from a file; what the connection
// writes is not followed.
func (c *framedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// CloseWrite half-closes a TCP connection, as net/http does before it
// closes one it refused a request on, so that the client reads the
// answer before the connection ends.
func (c *framedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Lingering close: how long and how much of what a client still sends
// after its answer is read and dropped before the connection closes.
const (
	lingerTime  = 2 * time.Second
	lingerBytes = 64 << 20
)

// Close closes the connection lingering, as Apache and nginx do: the
// write side first, then, in the background, what the client still sends
// is read and dropped (for lingerTime at most) before the socket closes.
// Closed at once with unread data, a TCP socket answers with a reset,
// which makes the client drop the answer it has not yet read: the answer
// to a request whose large body the server did not read (a 404, a 413).
func (c *framedConn) Close() error {
	cw, ok := c.Conn.(interface{ CloseWrite() error })
	if !ok || cw.CloseWrite() != nil {
		return c.Conn.Close()
	}
	go func() {
		_ = c.Conn.SetReadDeadline(time.Now().Add(lingerTime))
		_, _ = io.Copy(io.Discard, io.LimitReader(c.Conn, lingerBytes))
		_ = c.Conn.Close()
	}()
	return nil
}

// nextFaulty counts a request handed to the handler and reports whether
// its framing is faulty (or follows faulty framing, which net/http would
// not have read as a request). net/http hands every request it reads on
// a connection to the handler in turn, or ends the connection: runserver's
// server leaves even OPTIONS * to the handler.
func (c *framedConn) nextFaulty() bool {
	c.served++
	faulty := c.faulty.Load()
	return faulty > 0 && c.served >= faulty
}

// connKey is the context key of a request's *framedConn.
type connKey struct{}

// ConnContext is the http.Server's ConnContext that Refuse needs: the
// request's context carries its connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// Refuse answers a request whose framing is faulty with net/http's own
// answer to a request it cannot read, 400 "400 Bad Request", and closes
// the connection after it, without running next or reading the body. The
// server must leave every request to its handler (OPTIONS * too:
// DisableGeneralOptionsHandler), so that Refuse counts a connection's
// requests as Listener's framing does.
func Refuse(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(*framedConn); ok && c.nextFaulty() {
			h := w.Header()
			h.Set("Connection", "close")
			h.Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "400 Bad Request")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// stage is what a connection's next bytes are to framing.
type stage uint8

const (
	requestLine stage = iota
	leadingCRLF       // CR or LF bytes net/http skips after a POST, before the request line
	headerLine
	body      // a body of Content-Length bytes
	chunkLine // a chunk's size line
	chunkData
	chunkEnd // the CRLF after a chunk's data
	trailerLine
)

// framing follows the requests of a connection through its bytes as
// net/http's server reads them: request line and header lines up to an
// empty line, each ending in LF or CRLF; then a body of Content-Length
// bytes, or chunks (size lines ending in CRLF, data, CRLF) up to a chunk
// of size 0 and trailer lines up to an empty line, or nothing; after a
// POST, up to 4 CR or LF bytes. Bytes it cannot follow make the request
// after them faulty: the connection is closed before it is served. They
// are bytes net/http refuses, but for lines longer than framing keeps
// (maxKept) where it reads them: a chunk's size line with a long
// extension, a Content-Length or Transfer-Encoding line padded with
// spaces. What it costs: the bytes of a body or of a chunk's data are
// counted off, never looked at; a line is found with one bytes.IndexByte
// and read where it lies in the read's buffer, copied (into line) only
// when it spans reads.
type framing struct {
	stage    stage
	line     line
	left     uint64 // bytes of the body or the chunk (or its CRLF) still to come
	skip     int    // CR or LF bytes that may still be skipped
	post     bool   // the request is a POST
	http10   bool   // the request is below HTTP/1.1
	length   int64  // the request's Content-Length, -1 for none
	encoding int    // its Transfer-Encoding fields
	chunked  bool   // the one field is "chunked"
	folded   bool   // the last header line was a framing header, which a continuation line would change
	unknown  bool   // a framing header is not one framing can read
	requests int    // requests whose headers were read
	faulty   int    // the first faulty request, counted from 1; 0 for none
}

// feed follows p, the connection's next bytes.
func (f *framing) feed(p []byte) {
	for len(p) > 0 && f.faulty == 0 {
		switch f.stage {
		case leadingCRLF:
			if f.skip > 0 && (p[0] == '\r' || p[0] == '\n') {
				f.skip--
				p = p[1:]
				continue
			}
			f.stage = requestLine
		case body, chunkData:
			n := min(uint64(len(p)), f.left)
			f.left -= n
			p = p[n:]
			switch {
			case f.left > 0:
			case f.stage == body:
				f.next()
			default:
				f.stage, f.left = chunkEnd, 2
			}
		case chunkEnd:
			if p[0] != "\r\n"[2-f.left] {
				f.lost()
				return
			}
			p = p[1:]
			if f.left--; f.left == 0 {
				f.stage = chunkLine
			}
		default:
			request := f.stage == requestLine
			i := bytes.IndexByte(p, '\n')
			switch l := &f.line; {
			case i < 0:
				l.add(p, request)
				return
			case l.n > 0:
				// The end of a line gathered across reads.
				l.add(p[:i], request)
				f.endLine(l.kept[:min(l.n, maxKept)], l.n, l.tail[maxTail-min(l.n, maxTail):], l.spaces)
				l.reset()
			case request:
				// A whole line in p is read in place.
				f.endLine(p[:min(i, maxKept)], i, p[i-min(i, maxTail):i], bytes.Count(p[:i], []byte{' '}))
			default:
				f.endLine(p[:min(i, maxKept)], i, nil, 0)
			}
			p = p[i+1:]
		}
	}
}

// next makes the bytes that follow a request the next request.
func (f *framing) next() {
	f.stage = requestLine
	if f.post {
		f.stage, f.skip = leadingCRLF, 4
	}
}

// lost makes the request after this one faulty: framing cannot follow
// the bytes that follow.
func (f *framing) lost() { f.faulty = f.requests + 1 }

// endLine reads a complete line of n bytes, without its LF: head is its
// first maxKept bytes; of a request line, last is its last maxTail bytes
// and spaces how many it holds.
func (f *framing) endLine(head []byte, n int, last []byte, spaces int) {
	switch f.stage {
	case requestLine:
		// "METHOD TARGET HTTP/x.y", cut at its first two spaces as
		// net/http cuts it (the method before the first); a version
		// longer than the tail is not one.
		version, ok := []byte(nil), spaces == 2
		if last := bytes.TrimSuffix(last, []byte{'\r'}); ok {
			i := bytes.LastIndexByte(last, ' ')
			version, ok = last[i+1:], i >= 0
		}
		major, minor, valid := 1, 1, true
		switch string(version) { // the usual two without a call
		case "HTTP/1.1":
		case "HTTP/1.0":
			minor = 0
		default:
			major, minor, valid = http.ParseHTTPVersion(string(version))
		}
		if !ok || !valid {
			f.lost()
			return
		}
		f.post, f.http10 = bytes.HasPrefix(head, []byte(http.MethodPost+" ")), major < 1 || major == 1 && minor < 1
		f.length, f.encoding, f.chunked, f.folded, f.unknown = -1, 0, false, false, false
		f.stage = headerLine
	case headerLine:
		switch {
		case blank(head, n):
			f.endHeaders()
		case head[0] == ' ' || head[0] == '\t':
			f.unknown = f.unknown || f.folded
		default:
			f.header(head, n)
		}
	case chunkLine:
		// As net/http: CRLF and no other CR, spaces and tabs at the end
		// ignored, then the size in hex up to a ';'.
		if n == 0 || n > maxKept || head[n-1] != '\r' || bytes.IndexByte(head[:n-1], '\r') >= 0 {
			f.lost()
			return
		}
		digits, _, _ := bytes.Cut(bytes.TrimRight(head[:n-1], " \t"), []byte{';'})
		size, ok := parseHex(digits)
		if !ok {
			f.lost()
			return
		}
		if f.left, f.stage = size, chunkData; size == 0 {
			f.stage = trailerLine
		}
	case trailerLine:
		if blank(head, n) {
			f.next()
		}
	}
}

// blank reports whether a line of n bytes that begins with head ends a
// header (empty, or a CR alone).
func blank(head []byte, n int) bool { return n == 0 || n == 1 && head[0] == '\r' }

// header reads a header line of n bytes that begins with h for the
// framing headers.
func (f *framing) header(h []byte, n int) {
	cl := len(h) > len("content-length") && h[len("content-length")] == ':' && asciiFold(h[:len("content-length")], "content-length")
	te := len(h) > len("transfer-encoding") && h[len("transfer-encoding")] == ':' && asciiFold(h[:len("transfer-encoding")], "transfer-encoding")
	if f.folded = cl || te; !f.folded {
		return
	}
	if n > maxKept {
		f.unknown = true // a value framing does not keep whole
		return
	}
	_, value, _ := bytes.Cut(h, []byte{':'})
	value = bytes.TrimRight(bytes.TrimLeft(value, " \t"), " \t\r")
	if te {
		f.encoding++
		f.chunked = asciiFold(value, "chunked")
		return
	}
	length, ok := parseDecimal(value)
	switch {
	case !ok || f.length >= 0 && length != f.length:
		f.unknown = true // net/http refuses it, or two that differ
	default:
		f.length = length
	}
}

// endHeaders decides the request's framing once its headers are read.
func (f *framing) endHeaders() {
	f.requests++
	switch {
	case f.unknown, f.encoding > 0 && (f.length >= 0 || f.http10), f.encoding > 1, f.encoding == 1 && !f.chunked:
		// Faulty, or refused by net/http (which ends the connection).
		f.faulty = f.requests
	case f.encoding == 1:
		f.stage = chunkLine
	case f.length > 0:
		f.stage, f.left = body, uint64(f.length)
	default:
		f.next()
	}
}

// parseHex reads a chunk size as net/http does: 1 to 16 hex digits.
func parseHex(b []byte) (n uint64, ok bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		n = n<<4 | uint64(c)
	}
	return n, true
}

// parseDecimal reads a Content-Length as net/http does: decimal digits,
// below 2^63.
func parseDecimal(b []byte) (n int64, ok bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' || n > (math.MaxInt64-int64(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// asciiFold reports whether b is s, a lower-case word, in any ASCII case.
func asciiFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// maxKept is how many of a line's first bytes framing keeps: enough for
// a request's method, a header's name and a framing header's value, a
// chunk's size line.
const maxKept = 256

// maxTail is how many of a request line's last bytes framing keeps:
// enough for its version.
const maxTail = len(" HTTP/1.1\r")

// line is what framing gathers of a line that spans reads: its length,
// its first maxKept bytes, and of a request line its last maxTail bytes
// and how many spaces it holds.
type line struct {
	n      int
	kept   [maxKept]byte
	tail   [maxTail]byte
	spaces int
}

// add appends p to the line, a request line if request.
func (l *line) add(p []byte, request bool) {
	if l.n < len(l.kept) {
		copy(l.kept[l.n:], p)
	}
	l.n += len(p)
	if !request {
		return
	}
	if len(p) >= len(l.tail) {
		copy(l.tail[:], p[len(p)-len(l.tail):])
	} else {
		copy(l.tail[:], l.tail[len(p):])
		copy(l.tail[len(l.tail)-len(p):], p)
	}
	l.spaces += bytes.Count(p, []byte{' '})
}

// reset empties the line for the next.
func (l *line) reset() { l.n, l.spaces = 0, 0 }

package pycompat

import (
	"bytes"
	"errors"
	"html"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file is Django 3.2's MultiPartParser (django/http/multipartparser.py)
// in Go, class by class, so that a multipart body gives the fields, files
// and errors it gives in DRF: a body whose boundary never occurs is one
// part without headers, a part's headers must end within its first 1024
// bytes, a part Django skips without reading it is read again from where
// its reading stopped, and so on.

// MultipartError is Django's MultiPartParserError; DRF answers it 400
// "Multipart form parse error - " and the message.
type MultipartError string

func (e MultipartError) Error() string { return string(e) }

// The errors Django raises for a multipart body over its limits.
var (
	// ErrTooManyFields is TooManyFieldsSent (DATA_UPLOAD_MAX_NUMBER_FIELDS).
	ErrTooManyFields = errors.New("The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.")
	// ErrTooManyFiles is TooManyFilesSent (DATA_UPLOAD_MAX_NUMBER_FILES).
	ErrTooManyFiles = errors.New("The number of files exceeded settings.DATA_UPLOAD_MAX_NUMBER_FILES.")
	// ErrFieldsTooLarge is RequestDataTooBig: the fields, files aside,
	// exceed DATA_UPLOAD_MAX_MEMORY_SIZE.
	ErrFieldsTooLarge = errors.New("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
)

// MultipartBoundary returns the boundary of a multipart Content-Type as
// MultiPartParser's constructor reads it, or its MultipartError: a type
// not starting with "multipart/" (in that case), a header that is not
// ASCII, a boundary missing or not 1 to 201 printable ASCII characters
// (without a trailing space). The messages show the header as Django
// does, its bytes read as ISO-8859-1.
func MultipartBoundary(contentType string) (string, error) {
	if !strings.HasPrefix(contentType, "multipart/") {
		return "", MultipartError("Invalid Content-Type: " + string(Latin1([]byte(contentType))))
	}
	for i := 0; i < len(contentType); i++ {
		if contentType[i] >= utf8.RuneSelf {
			return "", MultipartError("Invalid non-ASCII Content-Type in multipart: " + string(Latin1([]byte(contentType))))
		}
	}
	_, params, _ := parsePartHeader(contentType)
	b, ok := params["boundary"]
	if !ok {
		return "", MultipartError("Invalid boundary in multipart: None")
	}
	if !validBoundary(b.value) {
		return "", MultipartError("Invalid boundary in multipart: " + b.value)
	}
	return b.value, nil
}

// validBoundary is cgi.valid_boundary: re.match("^[ -~]{0,200}[!-~]$"),
// whose "$" also matches before a final "\n".
func validBoundary(s string) bool {
	s = strings.TrimSuffix(s, "\n")
	if s == "" || len(s) > 201 || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// IsASCII reports whether every byte of s is ASCII, as Python's
// bytes.decode("ascii") succeeds.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// MultipartFiles receives the files of a multipart body as Django's upload
// handlers do.
type MultipartFiles interface {
	// NewFile starts the file of a part (new_file); Write then receives
	// its content.
	NewFile(field, filename, contentType string) error
	io.Writer
	// Complete keeps the file last started, under its field
	// (file_complete). As in Django, a file is complete only when another
	// part follows it: the file of the last part is never kept.
	Complete() error
}

// ParseMultipart is MultiPartParser.parse() of body with boundary: the
// fields, in order, their names and values decoded with c (errors
// replaced), and the files handed to files. More than maxFields fields
// (counted as Django counts them: the parts without headers too, beyond
// two) is ErrTooManyFields, more than maxFiles files ErrTooManyFiles,
// fields of more than maxFieldBytes bytes (each value's, with its name's
// characters and two more, as Django counts them; files are not counted)
// ErrFieldsTooLarge, read no further than the limit; a negative limit is
// none. A broken base64 file is a MultipartError; an
// error reading body is returned as it is.
func ParseMultipart(body io.Reader, boundary string, c *Codec, maxFields, maxFiles int, maxFieldBytes int64, files MultipartFiles) ([]QueryPair, error) {
	var fieldBytes int64
	var fields []QueryPair
	input := &lazyStream{producer: &chunkIter{r: body}}
	parts := interBoundaryIter{stream: input, separator: []byte("--" + boundary)}
	keys, numFiles, pending := 0, 0, false
	for {
		sub, err := parts.next()
		if err == io.EOF {
			return fields, nil
		}
		if err != nil {
			return nil, err
		}
		kind, headers, err := parseBoundaryStream(sub, 1024)
		if err != nil {
			return nil, err
		}
		if pending {
			if err := files.Complete(); err != nil {
				return nil, err
			}
			pending = false
		}
		if kind != partFile {
			if keys++; maxFields >= 0 && maxFields+2 < keys {
				return nil, ErrTooManyFields
			}
		}
		name, ok := headers["content-disposition"].params["name"]
		if !ok {
			continue
		}
		field := name.text(c, true)
		base64 := pyStrStrip(headers["content-transfer-encoding"].value) == "base64"
		if kind == partField {
			size := -1
			if maxFieldBytes >= 0 {
				size = int(maxFieldBytes - fieldBytes)
			}
			data, err := sub.read(size)
			if err != nil {
				return nil, err
			}
			fieldBytes += int64(len(data) + utf8.RuneCountInString(field) + 2)
			if maxFieldBytes >= 0 && fieldBytes > maxFieldBytes {
				return nil, ErrFieldsTooLarge
			}
			if base64 {
				if d, ok := B64Decode(string(data)); ok {
					data = d
				}
			}
			fields = append(fields, QueryPair{field, string(c.AppendDecodeReplace(nil, data))})
			continue
		}
		if numFiles++; maxFiles >= 0 && numFiles > maxFiles {
			return nil, ErrTooManyFiles
		}
		filename := sanitizeFileName(headers["content-disposition"].params["filename"].text(c, false))
		if filename == "" {
			continue
		}
		if err := files.NewFile(field, filename, pyStrStrip(headers["content-type"].value)); err != nil {
			return nil, err
		}
		if err := copyFile(files, sub, base64); err != nil {
			return nil, err
		}
		pending = true
	}
}

// copyFile writes the content of a file part to w, each chunk as it
// comes, decoding base64 by whole quanta as Django does: what is left
// over at the end is an error.
func copyFile(w io.Writer, part *lazyStream, base64 bool) error {
	var remainder []byte
	for {
		chunk, err := part.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if base64 {
			stripped := append(remainder, withoutASCIISpace(chunk)...)
			aligned := len(stripped) / 4 * 4
			remainder = stripped[aligned:]
			if aligned == 0 {
				continue
			}
			var ok bool
			if chunk, ok = B64Decode(string(stripped[:aligned])); !ok {
				return MultipartError("Could not decode base64 data.")
			}
		}
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	if len(remainder) > 0 {
		return MultipartError("Could not decode base64 data.")
	}
	return nil
}

// withoutASCIISpace is b"".join(b.split()): b without its ASCII
// whitespace.
func withoutASCIISpace(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' && (c < '\t' || c > '\r') {
			out = append(out, c)
		}
	}
	return out
}

// sanitizeFileName is MultiPartParser.sanitize_file_name: HTML entities
// unescaped, what precedes the last "/" or "\" removed; "", "." and ".."
// are no name.
func sanitizeFileName(name string) string {
	name = html.UnescapeString(name)
	name = name[strings.LastIndexByte(name, '/')+1:]
	name = name[strings.LastIndexByte(name, '\\')+1:]
	if name == "." || name == ".." {
		return ""
	}
	return name
}

// pyStrStrip is Python's str.strip() of a text: Unicode whitespace, and
// the separators U+001C to U+001F, removed from both ends.
func pyStrStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || 0x1C <= r && r <= 0x1F })
}

// The kinds of parts: RAW, FIELD and FILE in Django.
type partKind uint8

const (
	partRaw partKind = iota
	partField
	partFile
)

// partHeader is a header of a part as Django's parse_header reads it: the
// value after the ":", and the parameters.
type partHeader struct {
	value  string
	params map[string]headerParam
}

// headerParam is a parameter's value: bytes as sent, or, for an RFC 2231
// "name*=charset'lang'value" parameter, text already decoded.
type headerParam struct {
	value   string
	decoded bool
}

// text is force_str(value, c, errors="replace"): bytes decoded with c,
// decoded text as it is. With strip, the value is stripped first as
// Python strips it: bytes.strip() of bytes, str.strip() of text.
func (p headerParam) text(c *Codec, strip bool) string {
	switch {
	case p.decoded && strip:
		return pyStrStrip(p.value)
	case p.decoded:
		return p.value
	case strip:
		return string(c.AppendDecodeReplace(nil, []byte(strings.Trim(p.value, " \t\n\v\f\r"))))
	}
	return string(c.AppendDecodeReplace(nil, []byte(p.value)))
}

// parseBoundaryStream is parse_boundary_stream: the headers of a part,
// which must end with a blank line within its first maxHeaderSize bytes;
// lines that do not parse are skipped, and a part without a
// Content-Disposition is raw.
func parseBoundaryStream(stream *lazyStream, maxHeaderSize int) (partKind, map[string]partHeader, error) {
	chunk, err := stream.read(maxHeaderSize)
	if err != nil {
		return 0, nil, err
	}
	end := bytes.Index(chunk, []byte("\r\n\r\n"))
	if end < 0 {
		stream.unget(chunk)
		return partRaw, nil, nil
	}
	stream.unget(chunk[end+4:])
	kind := partRaw
	headers := map[string]partHeader{}
	for _, line := range bytes.Split(chunk[:end], []byte("\r\n")) {
		key, params, ok := parsePartHeader(string(line))
		if !ok {
			continue
		}
		name, value, ok := strings.Cut(key, ":")
		if !ok {
			continue
		}
		if name == "content-disposition" {
			kind = partField
			if params["filename"].value != "" {
				kind = partFile
			}
		}
		headers[name] = partHeader{value, params}
	}
	if kind == partRaw {
		stream.unget(chunk)
	}
	return kind, headers, nil
}

// parsePartHeader is multipartparser.parse_header of a header line: the
// text before the first ";" outside quotes, lowercased, and the
// parameters, names lowercased, values unquoted when quoted, an RFC 2231
// value ("name*=charset'lang'%XX") decoded. ok is false where Django
// raises ValueError and skips the line: a name that is not ASCII, an RFC
// 2231 value that is not UTF-8 or not in three parts.
func parsePartHeader(line string) (key string, params map[string]headerParam, ok bool) {
	s := ";" + line
	for i := 0; strings.HasPrefix(s, ";"); i++ {
		s = s[1:]
		end := strings.IndexByte(s, ';')
		for end > 0 && strings.Count(s[:end], `"`)%2 == 1 {
			next := strings.IndexByte(s[end+1:], ';')
			if next < 0 {
				end = -1
				break
			}
			end += 1 + next
		}
		if end < 0 {
			end = len(s)
		}
		p := strings.Trim(s[:end], " \t\n\v\f\r")
		s = s[end:]
		if i == 0 {
			if !IsASCII(p) {
				return "", nil, false
			}
			key = strings.ToLower(p)
			continue
		}
		eq := strings.IndexByte(p, '=')
		if eq < 0 {
			continue
		}
		name := strings.ToLower(strings.Trim(p[:eq], " \t\n\v\f\r"))
		if !IsASCII(name) {
			return "", nil, false
		}
		encoded := false
		if strings.HasSuffix(name, "*") {
			name = name[:len(name)-1]
			encoded = strings.Count(p, "'") == 2
		}
		value := strings.Trim(p[eq+1:], " \t\n\v\f\r")
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = strings.ReplaceAll(strings.ReplaceAll(value[1:len(value)-1], `\\`, `\`), `\"`, `"`)
		}
		param := headerParam{value: value}
		if encoded {
			pieces := strings.Split(value, "'")
			if len(pieces) != 3 || !utf8.ValidString(pieces[0]) || !utf8.ValidString(pieces[2]) {
				return "", nil, false
			}
			param = headerParam{value: unquote(pieces[2], CodecOf(pieces[0]), false), decoded: true}
		}
		if params == nil {
			params = map[string]headerParam{}
		}
		params[name] = param
	}
	return key, params, true
}

// multipartChunkSize is the chunk size of Django's upload handlers, in
// which MultiPartParser reads the body.
const multipartChunkSize = 64 << 10

// chunkIter is ChunkIter: the body in chunks of multipartChunkSize bytes,
// the last one shorter; io.EOF at the end.
type chunkIter struct {
	r   io.Reader
	err error
}

// chunkBuffers are the buffers chunkIter reads into, so that a small body
// does not cost a chunk's size.
var chunkBuffers = sync.Pool{New: func() any { return new([multipartChunkSize]byte) }}

func (c *chunkIter) next() ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	buf := chunkBuffers.Get().(*[multipartChunkSize]byte)
	defer chunkBuffers.Put(buf)
	n, err := io.ReadFull(c.r, buf[:])
	switch {
	case err == io.ErrUnexpectedEOF:
		c.err = io.EOF
	case err != nil:
		c.err = err
	}
	if n == 0 {
		return nil, c.err
	}
	return bytes.Clone(buf[:n]), nil
}

// producer is a Python iterator of chunks: io.EOF is StopIteration.
type producer interface {
	next() ([]byte, error)
}

// lazyStream is LazyStream: the chunks of a producer, with bytes put back
// in front (unget). Chunks are never modified.
type lazyStream struct {
	producer producer
	leftover []byte
}

func (s *lazyStream) next() ([]byte, error) {
	if len(s.leftover) > 0 {
		out := s.leftover
		s.leftover = nil
		return out, nil
	}
	return s.producer.next()
}

func (s *lazyStream) unget(b []byte) {
	if len(b) > 0 {
		s.leftover = append(b[:len(b):len(b)], s.leftover...)
	}
}

// read returns the next size bytes, fewer at the end; a negative size is
// all the rest.
func (s *lazyStream) read(size int) ([]byte, error) {
	var out []byte
	for size != 0 {
		chunk, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if size > 0 && len(chunk) > size {
			s.unget(chunk[size:])
			chunk = chunk[:size]
		}
		if size > 0 {
			size -= len(chunk)
		}
		out = append(out, chunk...)
	}
	return out, nil
}

// interBoundaryIter is InterBoundaryIter: a stream per part, until the
// body is exhausted.
type interBoundaryIter struct {
	stream    *lazyStream
	separator []byte
}

func (it interBoundaryIter) next() (*lazyStream, error) {
	b, err := newBoundaryIter(it.stream, it.separator)
	if err != nil {
		return nil, err
	}
	return &lazyStream{producer: b}, nil
}

// boundaryIter is BoundaryIter: the bytes of the stream up to the next
// separator, which is consumed, with one "\n" and then one "\r" before it
// dropped.
type boundaryIter struct {
	stream    *lazyStream
	separator []byte
	rollback  int
	done      bool
}

// newBoundaryIter returns the iterator of the next part, or io.EOF when
// the stream is exhausted (InputStreamExhausted).
func newBoundaryIter(stream *lazyStream, separator []byte) (*boundaryIter, error) {
	first, err := stream.read(1)
	if err != nil {
		return nil, err
	}
	if len(first) == 0 {
		return nil, io.EOF
	}
	stream.unget(first)
	return &boundaryIter{stream: stream, separator: separator, rollback: len(separator) + 6}, nil
}

func (b *boundaryIter) next() ([]byte, error) {
	if b.done {
		return nil, io.EOF
	}
	var chunk []byte
	chunks, exhausted := 0, true
	for {
		c, err := b.stream.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		chunk = append(chunk, c...)
		chunks++
		if len(chunk) > b.rollback || len(c) == 0 {
			exhausted = false
			break
		}
	}
	if exhausted {
		b.done = true
	}
	if chunks == 0 {
		return nil, io.EOF
	}
	if i := bytes.Index(chunk, b.separator); i >= 0 {
		end := i
		if chunk[max(0, end-1)] == '\n' {
			end--
		}
		if chunk[max(0, end-1)] == '\r' {
			end--
		}
		b.stream.unget(chunk[i+len(b.separator):])
		b.done = true
		return chunk[:end], nil
	}
	// A separator may begin in the last bytes: keep them for the next
	// round.
	if len(chunk) <= b.rollback {
		b.done = true
		return chunk, nil
	}
	b.stream.unget(chunk[len(chunk)-b.rollback:])
	return chunk[:len(chunk)-b.rollback], nil
}

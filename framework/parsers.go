package framework

import (
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
)

// JSONParser parses application/json bodies.
type JSONParser struct{}

// MediaType returns application/json.
func (JSONParser) MediaType() string { return "application/json" }

// Parse decodes one JSON value; numbers stay json.Number. A malformed
// body is 400 "JSON parse error - ...".
func (JSONParser) Parse(body io.Reader, _ map[string]string) (any, error) {
	dec := json.NewDecoder(body)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("extra data after the JSON value")
		}
		return nil, jsonError(err)
	}
	return v, nil
}

func jsonError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err
	}
	if err == io.EOF {
		err = errors.New("unexpected end of input")
	}
	return exceptions.ParseError("JSON parse error - " + err.Error())
}

// FormParser parses application/x-www-form-urlencoded bodies into a map
// of each field's last value, as a Django QueryDict reads them.
type FormParser struct{}

// MediaType returns application/x-www-form-urlencoded.
func (FormParser) MediaType() string { return "application/x-www-form-urlencoded" }

// Parse reads the form leniently, as Django does, so it never rejects one
// for its syntax: fields split on "&" only, "+" is a space, a "%" not
// followed by two hex digits stays as it is, a field without "=" is blank,
// and bytes that are not UTF-8 become U+FFFD. A body of more than
// DefaultMaxNumberFields fields is refused.
func (p FormParser) Parse(body io.Reader, params map[string]string) (any, error) {
	return p.ParseFields(body, params, DefaultMaxNumberFields)
}

// ParseFields is Parse with at most maxFields fields (negative: no limit).
func (FormParser) ParseFields(body io.Reader, _ map[string]string, maxFields int) (any, error) {
	b, err := io.ReadAll(body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, exceptions.ParseError("Form parse error - " + err.Error())
	}
	if tooManyFields(string(b), maxFields) {
		return nil, exceptions.TooManyFields()
	}
	m := map[string]any{}
	for _, field := range strings.Split(string(b), "&") {
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		m[unquotePlus(k)] = unquotePlus(v)
	}
	return m, nil
}

// tooManyFields reports whether a query string or form body has more than
// maxFields fields (a negative maxFields is no limit), counted as Django
// counts them: one more than its "&", blank fields included.
func tooManyFields(raw string, maxFields int) bool {
	return maxFields >= 0 && raw != "" && strings.Count(raw, "&") >= maxFields
}

// unquotePlus decodes one side of a form field.
func unquotePlus(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func lastValues(vals map[string][]string) map[string]any {
	m := make(map[string]any, len(vals))
	for k, v := range vals {
		m[k] = v[len(v)-1]
	}
	return m
}

// MultiPartParser parses multipart/form-data bodies: fields as strings,
// files as *multipart.FileHeader.
type MultiPartParser struct{}

// MediaType returns multipart/form-data.
func (MultiPartParser) MediaType() string { return "multipart/form-data" }

// maxMemory is how much of a multipart body is kept in memory; the rest
// of the files go to temporary files.
const maxMemory = 10 << 20

// Parse reads the multipart form; a missing boundary or broken body is
// 400, and so is a body of more than DefaultMaxNumberFields fields (files
// not counted) or one Go's mime/multipart will not hold: more than 1000
// parts in all, whatever the limit (GODEBUG multipartmaxparts changes it).
func (p MultiPartParser) Parse(body io.Reader, params map[string]string) (any, error) {
	return p.ParseFields(body, params, DefaultMaxNumberFields)
}

// ParseFields is Parse with at most maxFields fields (negative: no limit).
func (MultiPartParser) ParseFields(body io.Reader, params map[string]string, maxFields int) (any, error) {
	boundary := params["boundary"]
	if boundary == "" {
		return nil, exceptions.ParseError("Multipart form parse error - Invalid boundary in multipart: None")
	}
	form, err := multipart.NewReader(body, boundary).ReadForm(maxMemory)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		if errors.Is(err, multipart.ErrMessageTooLarge) {
			return nil, exceptions.TooManyFields()
		}
		return nil, exceptions.ParseError("Multipart form parse error - " + err.Error())
	}
	fields := 0
	for _, vs := range form.Value {
		fields += len(vs)
	}
	if maxFields >= 0 && fields > maxFields {
		_ = form.RemoveAll()
		return nil, exceptions.TooManyFields()
	}
	m := lastValues(form.Value)
	for k, files := range form.File {
		m[k] = files[len(files)-1]
	}
	return m, nil
}

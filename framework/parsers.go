package framework

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/internal/pycompat"
)

// JSONParser parses application/json bodies.
type JSONParser struct{}

// MediaType returns application/json.
func (JSONParser) MediaType() string { return "application/json" }

// Parse decodes one JSON value; numbers stay json.Number. The body is
// text in the Content-Type's charset (UTF-8 without one, or one Python
// does not know), decoded as DRF decodes it (Python's stream reader: an
// incomplete character at the end is left out, UTF-16 and UTF-32 need a
// byte order mark). A body that does not decode, or is not JSON, is 400
// "JSON parse error - ..." with Python's words for a decoding error and
// for a byte order mark left in the text.
func (JSONParser) Parse(body io.Reader, params map[string]string) (any, error) {
	b, err := io.ReadAll(body)
	if err != nil {
		return nil, jsonError(err)
	}
	text, err := pycompat.CodecOf(params["charset"]).ReadAll(b)
	if err != nil {
		return nil, jsonError(err)
	}
	if bytes.HasPrefix(text, []byte("\uFEFF")) {
		return nil, jsonError(errors.New("Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"))
	}
	dec := json.NewDecoder(bytes.NewReader(text))
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
// for its syntax (pycompat.AppendQuery, in the Content-Type's charset):
// fields split on "&" only, "+" is a space, a "%" not followed by two hex
// digits stays as it is, a field without "=" is blank, and bytes that do
// not decode become U+FFFD. A body of more than DefaultMaxNumberFields
// fields is refused.
func (p FormParser) Parse(body io.Reader, params map[string]string) (any, error) {
	return p.ParseFields(body, params, DefaultMaxNumberFields)
}

// ParseFields is Parse with at most maxFields fields (negative: no limit).
func (FormParser) ParseFields(body io.Reader, params map[string]string, maxFields int) (any, error) {
	b, err := io.ReadAll(body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, exceptions.ParseError("Form parse error - " + err.Error())
	}
	fields, ok := pycompat.AppendQueryFields(nil, string(b), pycompat.CodecOf(params["charset"]), maxFields)
	if !ok {
		return nil, exceptions.TooManyFields()
	}
	m := make(map[string]any, len(fields))
	for _, f := range fields {
		m[f.Key] = f.Value
	}
	return m, nil
}

// tooManyFields reports whether a query string or form body has more than
// maxFields fields (a negative maxFields is no limit), counted as Django
// counts them (pycompat.TooManyFields).
func tooManyFields(raw string, maxFields int) bool {
	return pycompat.TooManyFields(raw, maxFields)
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

package framework

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/request"
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
// "JSON parse error - ..." in Python's words: the codec's error, or the
// one json.loads raises (pycompat.JSONLoadsError), with its position.
// Go's decoder decodes; Python's words are found only for a body it
// refuses, or that has an integer too long for Python (which Go takes).
// A string keeps a lone surrogate escape ("\ud800") as Python's str
// does, in WTF-8 (pycompat.JSONLoads).
func (JSONParser) Parse(body io.Reader, params map[string]string) (any, error) {
	b, err := io.ReadAll(body)
	if err != nil {
		return nil, jsonError(err)
	}
	text, err := pycompat.CodecOf(params["charset"]).ReadAll(b)
	if err != nil {
		return nil, jsonError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	err = dec.Decode(&v)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			err = nil
		} else if err == nil {
			err = errors.New("extra data after the JSON value")
		}
	}
	if err != nil || pycompat.HasLongDigitRun(text) {
		// Python's words where it has some; Go's where it would
		// not fail (nesting deeper than Python follows).
		if pyErr := pycompat.JSONLoadsError(text); pyErr != nil {
			err = pyErr
		}
	}
	if err == nil && pycompat.HasLoneSurrogate(text) {
		// Python's str keeps a lone surrogate, which Go's decoder makes
		// U+FFFD: DRF's CharField refuses it.
		v, err = pycompat.JSONLoads(text)
	}
	if err != nil {
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
// not decode become U+FFFD. A body of more than defaultMaxNumberFields
// fields is refused.
func (p FormParser) Parse(body io.Reader, params map[string]string) (any, error) {
	return p.ParseFields(body, params, defaultMaxNumberFields)
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
		request.AddFormValue(m, f.Key, f.Value)
	}
	return m, nil
}

// tooManyFields reports whether a query string or form body has more than
// maxFields fields (a negative maxFields is no limit), counted as Django
// counts them (pycompat.TooManyFields).
func tooManyFields(raw string, maxFields int) bool {
	return pycompat.TooManyFields(raw, maxFields)
}

// MultiPartParser parses multipart/form-data bodies as Django's
// MultiPartParser reads them (pycompat.ParseMultipart): fields as strings,
// their names and values decoded in the Content-Type's charset, files as
// *multipart.FileHeader; a name sent more than once holds all its values
// (request.FormList), a file wins over a field. A body whose boundary
// never occurs, or with no part Django reads, is an empty form.
//
// Files stream as Django's upload handlers take them: kept in memory when
// the body is at most MaxMemorySize (FILE_UPLOAD_MAX_MEMORY_SIZE),
// otherwise written to temporary files (in $TMPDIR, Django's
// FILE_UPLOAD_TEMP_DIR) as they arrive, which the request removes when it
// ends, whatever happened. Settings.MaxBodyBytes
// (DATA_UPLOAD_MAX_MEMORY_SIZE) bounds the fields only.
type MultiPartParser struct {
	// MaxMemorySize is FILE_UPLOAD_MAX_MEMORY_SIZE; 0 gives 2.5 MB.
	MaxMemorySize int64
}

// fileUploadMaxMemorySize is Django's FILE_UPLOAD_MAX_MEMORY_SIZE.
const fileUploadMaxMemorySize = 2621440

// maxNumberFiles is Django's DATA_UPLOAD_MAX_NUMBER_FILES.
const maxNumberFiles = 100

// MediaType returns multipart/form-data.
func (MultiPartParser) MediaType() string { return "multipart/form-data" }

// Parse reads a multipart/form-data body whose Content-Type has params
// (the boundary, a charset); a body of more than defaultMaxNumberFields
// fields is refused. Outside a request, which removes temporary files,
// it keeps whole files in memory: a view's requests use ParseUpload.
func (p MultiPartParser) Parse(body io.Reader, params map[string]string) (any, error) {
	return p.ParseFields(body, params, defaultMaxNumberFields)
}

// ParseFields is Parse with at most maxFields fields (negative: no limit).
func (p MultiPartParser) ParseFields(body io.Reader, params map[string]string, maxFields int) (any, error) {
	ct := p.MediaType()
	for _, k := range slices.Sorted(maps.Keys(params)) {
		ct += "; " + k + `="` + strings.ReplaceAll(strings.ReplaceAll(params[k], `\`, `\\`), `"`, `\"`) + `"`
	}
	data, _, err := p.parse(body, ct, maxFields, -1, &uploads{memory: math.MaxInt64 - 1})
	return data, err
}

// ParseUpload reads the body of r, its Content-Type as sent, with at most
// limits.MaxFields fields (0: defaultMaxNumberFields, negative: no limit)
// and 100 files, the fields of at most limits.MaxBytes bytes (0: no
// limit). Django's errors are 400 "Multipart form parse error - ..." in
// its words: a type not in lowercase ("Invalid Content-Type: ..."), a
// header that is not ASCII, a boundary missing or invalid ("Invalid
// boundary in multipart: None"), a file whose base64 does not decode; too
// many fields is 400 exceptions.TooManyFields, too many files its like,
// fields too large 413. cleanup removes the temporary files kept.
func (p MultiPartParser) ParseUpload(r *http.Request, body io.Reader, limits request.UploadLimits) (any, func(), error) {
	return p.parse(body, r.Header.Get("Content-Type"), limits.MaxFields, cmp.Or(limits.MaxBytes, -1), p.uploads(r.ContentLength))
}

// uploads holds the files of a body of contentLength bytes (-1: unknown)
// as Django's handlers do: all in memory when it is at most MaxMemorySize
// (MemoryFileUploadHandler), all in temporary files when it is larger
// (TemporaryFileUploadHandler); of a body of unknown length, in memory
// until MaxMemorySize bytes of files are.
func (p MultiPartParser) uploads(contentLength int64) *uploads {
	memory := cmp.Or(p.MaxMemorySize, fileUploadMaxMemorySize)
	if contentLength > memory {
		memory = 0
	}
	return &uploads{memory: memory}
}

func (MultiPartParser) parse(body io.Reader, contentType string, maxFields int, maxFieldBytes int64, files *uploads) (any, func(), error) {
	if maxFields == 0 {
		maxFields = defaultMaxNumberFields
	}
	boundary, err := pycompat.MultipartBoundary(contentType)
	if err != nil {
		return nil, nil, exceptions.ParseError("Multipart form parse error - " + err.Error())
	}
	charset, _ := pycompat.HeaderParam(contentType, "charset")
	fields, err := pycompat.ParseMultipart(body, boundary, pycompat.CodecOf(charset), maxFields, maxNumberFiles, maxFieldBytes, files)
	if err != nil {
		files.remove()
		var djangoErr pycompat.MultipartError
		switch {
		case errors.As(err, &djangoErr):
			return nil, nil, exceptions.ParseError("Multipart form parse error - " + err.Error())
		case errors.Is(err, pycompat.ErrTooManyFields):
			return nil, nil, exceptions.TooManyFields()
		case errors.Is(err, pycompat.ErrTooManyFiles):
			return nil, nil, exceptions.ParseError(err.Error())
		case errors.Is(err, pycompat.ErrFieldsTooLarge):
			return nil, nil, &http.MaxBytesError{Limit: maxFieldBytes}
		}
		return nil, nil, err
	}
	files.drop()
	m := make(map[string]any, len(fields)+len(files.kept))
	for _, f := range fields {
		request.AddFormValue(m, f.Key, f.Value)
	}
	for _, f := range files.kept {
		m[f.field] = f.header
	}
	return m, files.remove, nil
}

// FileUploadParser is DRF's FileUploadParser: the whole body is one file,
// data {"file": *multipart.FileHeader}, named by the view's "filename" URL
// parameter or the Content-Disposition header's filename* or filename
// (without one: 400 "Missing filename. Request should include a
// Content-Disposition header with a filename parameter."), typed by the
// Content-Type. It takes any media type: give it as a view's only
// parser. The file is kept as MultiPartParser keeps one, in memory up to
// MaxMemorySize, otherwise in a temporary file the request removes when
// it ends.
type FileUploadParser struct {
	// MaxMemorySize is FILE_UPLOAD_MAX_MEMORY_SIZE; 0 gives 2.5 MB.
	MaxMemorySize int64
}

// MediaType returns */*.
func (FileUploadParser) MediaType() string { return "*/*" }

// msgMissingFilename is FileUploadParser's error for a body without a
// file name, DRF's words.
const msgMissingFilename = "Missing filename. Request should include a Content-Disposition header with a filename parameter."

// Parse refuses: the file name comes from the request, which ParseUpload
// has.
func (FileUploadParser) Parse(io.Reader, map[string]string) (any, error) {
	return nil, exceptions.ParseError(msgMissingFilename)
}

// ParseUpload reads r's body as one file; limits do not apply, as in
// Django a raw upload is not DATA_UPLOAD_MAX_MEMORY_SIZE's.
func (p FileUploadParser) ParseUpload(r *http.Request, body io.Reader, _ request.UploadLimits) (any, func(), error) {
	name := uploadFilename(r)
	if name == "" {
		return nil, nil, exceptions.ParseError(msgMissingFilename)
	}
	u := MultiPartParser(p).uploads(r.ContentLength)
	err := u.NewFile("file", name, r.Header.Get("Content-Type"))
	if err == nil {
		_, err = io.Copy(u, body)
	}
	if err == nil {
		err = u.Complete()
	}
	if err != nil {
		u.remove()
		return nil, nil, err
	}
	return map[string]any{"file": u.kept[0].header}, u.remove, nil
}

// uploadFilename is FileUploadParser.get_filename: the "filename" URL
// parameter, else the Content-Disposition's filename* (RFC 2231's
// charset'language'value decoded) or filename.
func uploadFilename(r *http.Request) string {
	if name := r.PathValue("filename"); name != "" {
		return name
	}
	cd := r.Header.Get("Content-Disposition")
	if v, ok := pycompat.HeaderParam(cd, "filename*"); ok {
		if charset, rest, ok := strings.Cut(v, "'"); ok {
			if _, encoded, ok := strings.Cut(rest, "'"); ok {
				if raw, err := url.PathUnescape(encoded); err == nil {
					return string(pycompat.CodecOf(charset).AppendDecodeReplace(nil, []byte(raw)))
				}
			}
		}
		return v
	}
	v, _ := pycompat.HeaderParam(cd, "filename")
	return v
}

// uploads keeps the files of a body as *multipart.FileHeader, which only
// mime/multipart makes: each file is written, as it arrives, into a
// multipart stream of its own that multipart.Reader.ReadForm reads in a
// goroutine, in memory while it fits what is left of memory, otherwise in
// a temporary file. It is the pycompat.MultipartFiles of the parsers.
type uploads struct {
	kept   []*upload
	cur    *upload
	memory int64 // bytes of files still allowed in memory
}

// upload is one file: while written, the stream ReadForm reads; once
// complete, its header.
type upload struct {
	field, filename, contentType string

	w    *io.PipeWriter
	mw   *multipart.Writer
	part io.Writer
	read chan readForm

	form   *multipart.Form
	header *multipart.FileHeader
}

type readForm struct {
	form *multipart.Form
	err  error
}

// NewFile starts a file, named as Django's UploadedFile names it
// (files.UploadedName; 400 for no name).
func (u *uploads) NewFile(field, filename, contentType string) error {
	filename, err := files.UploadedName(filename)
	if err != nil {
		return exceptions.ParseError(err.Error())
	}
	r, w := io.Pipe()
	f := &upload{field: field, filename: filename, contentType: contentType, w: w, mw: multipart.NewWriter(w), read: make(chan readForm, 1)}
	memory := u.memory
	go func() {
		form, err := multipart.NewReader(r, f.mw.Boundary()).ReadForm(memory)
		r.CloseWithError(err) // a writer still writing is told
		f.read <- readForm{form, err}
	}()
	u.cur = f
	f.part, err = f.mw.CreateFormFile("file", "file")
	return err
}

// Write writes the current file's content.
func (u *uploads) Write(p []byte) (int, error) { return u.cur.part.Write(p) }

// Complete keeps the current file, with the name and type Django gives it.
func (u *uploads) Complete() error {
	f := u.cur
	u.cur = nil
	err := f.mw.Close()
	if err == nil {
		err = f.w.Close()
	}
	res := <-f.read
	f.form = res.form
	if err == nil {
		err = res.err
	}
	if err != nil {
		u.kept = append(u.kept, f) // for remove
		return err
	}
	f.header = f.form.File["file"][0]
	if f.header.Size <= u.memory {
		u.memory -= f.header.Size
	}
	f.header.Filename = f.filename
	f.header.Header = textproto.MIMEHeader{}
	if f.contentType != "" {
		f.header.Header.Set("Content-Type", f.contentType)
	}
	u.kept = append(u.kept, f)
	return nil
}

// drop forgets the current file, never completed.
func (u *uploads) drop() {
	if f := u.cur; f != nil {
		u.cur = nil
		f.w.CloseWithError(errors.New("upload interrupted"))
		if res := <-f.read; res.form != nil {
			_ = res.form.RemoveAll()
		}
	}
}

// remove forgets every file, removing their temporary files.
func (u *uploads) remove() {
	u.drop()
	for _, f := range u.kept {
		if f.form != nil {
			_ = f.form.RemoveAll()
		}
	}
	u.kept = nil
}

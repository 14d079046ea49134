package serializers

import (
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/internal/structs"
)

// The OPTIONS types of DRF's FileField and ImageField.
const (
	kindFile  = "file upload"
	kindImage = "image upload"
)

// DRF's messages of its FileField and ImageField.
const (
	msgNoFile       = "No file was submitted."
	msgNotAFile     = "The submitted data was not a file. Check the encoding type on the form."
	msgNoName       = "No filename could be determined."
	msgEmptyFile    = "The submitted file is empty."
	msgFileName     = "Ensure this filename has at most %d characters (it has %d)."
	msgInvalidImage = "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
)

var fileType = reflect.TypeFor[files.File]()

// fileField is a FileField's or an ImageField's: a files.File field, a
// model's or another struct's.
type fileField struct {
	image bool
	// allowEmpty is allow_empty_file; names is use_url=False.
	allowEmpty, names bool
	// storage gives the files' URLs.
	storage files.Storage
}

// isFileType reports a files.File field, or a pointer to one.
func isFileType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t == fileType
}

// bindFile makes f a FileField, or an ImageField when the model's field
// is one, of its model field's storage and max_length: DRF's
// ModelSerializer's mapping of Django's FileField and ImageField.
func (f *field) bindFile(mf *models.Field) {
	if !isFileType(f.sf.Type) {
		return
	}
	f.file = &fileField{storage: files.FileSystemStorage{}}
	f.kind = kindFile
	if mf == nil {
		return
	}
	f.file.storage = mf.Storage
	f.maxLength = mf.MaxLength
	if mf.Kind == models.ImageField {
		f.file.image, f.kind = true, kindImage
	}
}

// fileOption applies the drf tag's options of file fields: image,
// allow_empty_file and use_url; ok is false for another option.
func (f *field) fileOption(key, val string) (ok bool, err error) {
	switch key {
	case "image", "allow_empty_file", "use_url":
	default:
		return false, nil
	}
	if f.file == nil {
		return true, fmt.Errorf("%s needs a files.File field", key)
	}
	switch key {
	case "image":
		f.file.image, f.kind = true, kindImage
	case "allow_empty_file":
		f.file.allowEmpty = true
	case "use_url":
		if val != "false" {
			return true, fmt.Errorf("use_url takes false")
		}
		f.file.names = true
	}
	return true, nil
}

// decodeFile is DRF's FileField.to_internal_value, and ImageField's
// Pillow check: an uploaded file (a *multipart.FileHeader) with a name of
// at most max_length characters, not empty unless allow_empty_file, and,
// for an ImageField, an image as files.VerifyImage reads one. The file's
// name and upload are set in the struct at base; null clears the field.
func (f *field) decodeFile(base structs.Addr, raw any) []string {
	if raw == nil {
		if !f.allowNull {
			return []string{msgNull}
		}
		f.sf.SetNull(base)
		return nil
	}
	fh, ok := raw.(*multipart.FileHeader)
	if !ok {
		return []string{msgNotAFile}
	}
	switch n := len([]rune(fh.Filename)); {
	case n == 0:
		return []string{msgNoName}
	case !f.file.allowEmpty && fh.Size == 0:
		return []string{msgEmptyFile}
	case f.maxLength >= 0 && n > f.maxLength:
		return []string{fmt.Sprintf(msgFileName, f.maxLength, n)}
	}
	if f.file.image {
		if fh.Size == 0 {
			// Django's forms.ImageField takes no empty file.
			return []string{msgEmptyFile}
		}
		content, err := fh.Open()
		if err != nil {
			return []string{msgInvalidImage}
		}
		err = files.VerifyImage(content)
		content.Close()
		if err != nil {
			return []string{msgInvalidImage}
		}
	}
	if err := f.sf.Scan(base, fh.Filename); err != nil {
		return []string{msgNotAFile}
	}
	structs.At[files.File](f.sf.Addr(base)).Upload = fh
	return nil
}

// appendFile is DRF's FileField.to_representation: null for no file,
// else the storage's URL, made absolute through the request when there
// is one, or the name with use_url=False.
func (f *field) appendFile(b []byte, obj structs.Addr, c *Context) ([]byte, error) {
	p := f.sf.Addr(obj)
	if p.IsNil() || structs.At[files.File](p).Name == "" {
		return append(b, "null"...), nil
	}
	name := structs.At[files.File](p).Name
	if f.file.names {
		return appendString(b, name), nil
	}
	ctx := context.Background()
	if c != nil && c.Request != nil {
		ctx = c.Request.Context()
	}
	link, err := f.file.storage.URL(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("serializers: field %q: %w", f.name, err)
	}
	if c != nil && c.Request != nil {
		link = absoluteURI(c.Request.Request, link)
	}
	return appendString(b, link), nil
}

// absoluteURI is Django's request.build_absolute_uri(location): a URL
// with a scheme as it is, a path from the root after the request's
// scheme://host (reverse.BaseURL), another joined to the request's URL.
func absoluteURI(r *http.Request, location string) string {
	u, err := url.Parse(location)
	switch {
	case err != nil || u.Scheme != "":
		return location
	case strings.HasPrefix(location, "/") && !strings.HasPrefix(location, "//"):
		return reverse.BaseURL(r) + location
	}
	base, err := url.Parse(reverse.BaseURL(r) + r.URL.RequestURI())
	if err != nil {
		return location
	}
	return base.ResolveReference(u).String()
}

// requiredMessage is the message of a required field left out: a file
// field's "No file was submitted.", else "This field is required.".
func (f *field) requiredMessage() string {
	if f.file != nil {
		return msgNoFile
	}
	return msgRequired
}

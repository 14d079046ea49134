package files

import (
	"context"
	"database/sql/driver"
	"fmt"
	"mime/multipart"
	"path"
	"strconv"
	"strings"
	"time"
)

// File is the value of a model's FileField or ImageField, Django's
// FieldFile: the Name of the file in the field's storage, which the
// column holds ("" for no file), and, once a serializer has validated an
// upload for the field, the Upload to store at the save.
type File struct {
	// Name is the file's name in the storage, "" for none.
	Name string
	// Upload is the uploaded file a save stores, nil for none.
	Upload *multipart.FileHeader
}

// Value is the column's value, the name.
func (f File) Value() (driver.Value, error) { return f.Name, nil }

// Scan reads the column: the name, "" for NULL.
func (f *File) Scan(src any) error {
	switch x := src.(type) {
	case nil:
		f.Name = ""
	case string:
		f.Name = x
	case []byte:
		f.Name = string(x)
	default:
		return fmt.Errorf("files: cannot read %T into a File", src)
	}
	f.Upload = nil
	return nil
}

// Save stores the Upload in storage under name (as GenerateFilename
// gives it) and keeps the name the storage used as Name: Django's
// FieldFile.save. Without an Upload it does nothing.
func (f *File) Save(ctx context.Context, storage Storage, name string, maxLength int) error {
	if f.Upload == nil {
		return nil
	}
	content, err := f.Upload.Open()
	if err != nil {
		return err
	}
	defer content.Close()
	saved, err := storage.Save(ctx, name, content, maxLength)
	if err != nil {
		return err
	}
	f.Name, f.Upload = saved, nil
	return nil
}

// GenerateFilename is Django's FileField.generate_filename for an
// upload_to pattern: the directory that pattern gives at now (Python's
// strftime: "covers/%Y/%m/"), joined to filename, validated as
// ValidateFileName does (a relative path), its last part made valid as
// ValidFilename makes it.
func GenerateFilename(uploadTo, filename string, now time.Time) (string, error) {
	name := filename
	if uploadTo != "" {
		name = join(strftime(now, uploadTo), filename)
	}
	if err := ValidateFileName(name, true); err != nil {
		return "", err
	}
	dir, file := split(strings.ReplaceAll(name, `\`, "/"))
	valid, err := ValidFilename(file)
	if err != nil {
		return "", err
	}
	return path.Clean(join(dir, valid)), nil
}

// strftime is Python's datetime.strftime of the C locale, for the
// directives of upload_to patterns: %Y %y %m %d %H %I %M %S %f %p %j %a
// %A %b %B and %%. Another directive is left as written.
func strftime(t time.Time, pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c != '%' || i+1 == len(pattern) {
			b.WriteByte(c)
			continue
		}
		i++
		switch pattern[i] {
		case 'Y':
			b.WriteString(pad(t.Year(), 4))
		case 'y':
			b.WriteString(pad(t.Year()%100, 2))
		case 'm':
			b.WriteString(pad(int(t.Month()), 2))
		case 'd':
			b.WriteString(pad(t.Day(), 2))
		case 'H':
			b.WriteString(pad(t.Hour(), 2))
		case 'I':
			b.WriteString(pad((t.Hour()+11)%12+1, 2))
		case 'M':
			b.WriteString(pad(t.Minute(), 2))
		case 'S':
			b.WriteString(pad(t.Second(), 2))
		case 'f':
			b.WriteString(pad(t.Nanosecond()/1000, 6))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'j':
			b.WriteString(pad(t.YearDay(), 3))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(pattern[i])
		}
	}
	return b.String()
}

func pad(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

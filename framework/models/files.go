package models

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/internal/structs"
)

// fileType is the Go type of a FileField or an ImageField: Django's
// FieldFile, the name the column holds and the upload a save stores.
var fileType = reflect.TypeFor[files.File]()

// defaultMaxLength is a FileField's and an ImageField's max_length by
// default, as in Django.
const defaultMaxLength = 100

// isFile reports a FileField or an ImageField.
func (f *Field) isFile() bool { return f.Kind == FileField || f.Kind == ImageField }

// fileFields checks the file fields (a files.File, or a pointer to one
// for null=True), gives them Django's max_length of 100 and their
// Meta.Storage and Meta.UploadTo.
func (d *Description) fileFields() error {
	for _, f := range d.Fields {
		t := f.Struct.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if (t == fileType) != f.isFile() {
			return fmt.Errorf("%s: a FileField or an ImageField is a files.File, and a files.File one of them", f.Name)
		}
		if f.UploadTo != "" && !f.isFile() {
			return fmt.Errorf("%s: upload_to needs a FileField or an ImageField", f.Name)
		}
		if (f.WidthField != "" || f.HeightField != "") && f.Kind != ImageField {
			return fmt.Errorf("%s: width_field and height_field need an ImageField", f.Name)
		}
		if !f.isFile() {
			continue
		}
		if f.MaxLength == 0 {
			f.MaxLength = defaultMaxLength
		}
		f.Storage = files.FileSystemStorage{}
		var err error
		if f.width, err = d.dimensionField(f, "width_field", f.WidthField); err != nil {
			return err
		}
		if f.height, err = d.dimensionField(f, "height_field", f.HeightField); err != nil {
			return err
		}
		d.files = append(d.files, f)
	}
	for name, st := range d.Meta.Storage {
		f := d.Field(name)
		if f == nil || !f.isFile() || st == nil {
			return fmt.Errorf("Meta.Storage names %q, which is no file field, or gives it no storage", name)
		}
		f.Storage = st
	}
	for name, fn := range d.Meta.UploadTo {
		f := d.Field(name)
		if f == nil || !f.isFile() || fn == nil {
			return fmt.Errorf("Meta.UploadTo names %q, which is no file field, or gives it no function", name)
		}
		f.uploadToFunc = fn
	}
	return nil
}

// dimensionField is the integer field an ImageField's width_field or
// height_field (option) names, nil for none.
func (d *Description) dimensionField(f *Field, option, name string) (*Field, error) {
	if name == "" {
		return nil, nil
	}
	dim := d.Field(name)
	if dim == nil || dim.Struct.Kind != structs.Int && dim.Struct.Kind != structs.Uint {
		return nil, fmt.Errorf("%s: %s names %q, which is no integer field of the model", f.Name, option, name)
	}
	return dim, nil
}

// updateDimensions is Django's ImageField.update_dimension_fields: the
// width and height fields of the item at base get the new upload's size,
// or null (0 when they cannot be null) when the field holds no file; a
// file already stored leaves them alone.
func (f *Field) updateDimensions(base structs.Addr, file *files.File) error {
	if f.width == nil && f.height == nil || file != nil && file.Upload == nil && file.Name != "" {
		return nil
	}
	if file == nil || file.Upload == nil {
		for _, dim := range []*Field{f.width, f.height} {
			if dim != nil {
				dim.Struct.SetNull(base)
			}
		}
		return nil
	}
	content, err := file.Upload.Open()
	if err != nil {
		return err
	}
	w, h, err := files.ImageDimensions(content)
	content.Close()
	if err != nil {
		return err
	}
	for _, dim := range []struct {
		f    *Field
		size int
	}{{f.width, w}, {f.height, h}} {
		if dim.f != nil {
			dim.f.Struct.Set(base, structs.Value{Kind: dim.f.Struct.Kind, I: int64(dim.size), U: uint64(dim.size)})
		}
	}
	return nil
}

// generateFilename is Django's FileField.generate_filename: the name a
// new upload of filename is saved under, from Meta.UploadTo's function
// given obj, else the upload_to pattern at now (files.GenerateFilename).
func (f *Field) generateFilename(obj any, filename string, now time.Time) (string, error) {
	if f.uploadToFunc != nil {
		return files.GenerateFilename("", f.uploadToFunc(obj, filename), now)
	}
	return files.GenerateFilename(f.UploadTo, filename, now)
}

// noUndo is SaveFiles' undo when it stored nothing.
func noUndo() {}

// SaveFiles stores the new uploads of the file fields of the item at base
// (a files.File with an Upload) in each field's storage, under the name
// GenerateFilename gives at now, and sets each field's Name to the name
// stored: Django's FileField.pre_save, as a save runs it before writing
// the row; an ImageField's width_field and height_field get the new
// image's size, or null with no file (updateDimensions). item is the same
// item (a pointer to the model), which a Meta.UploadTo function is given.
// undo deletes the files stored, for a write that fails after, but not
// one that replaced a file of the same name (a storage that overwrites);
// when one fails to store, those stored before it are deleted.
func (d *Description) SaveFiles(ctx context.Context, base structs.Addr, item any, now time.Time) (undo func(), err error) {
	if len(d.files) == 0 {
		return noUndo, nil
	}
	type stored struct {
		storage files.Storage
		name    string
	}
	var done []stored
	undo = func() {
		for _, s := range done {
			// A file left by a failed delete is the storage's to report;
			// the write's error is the one answered.
			_ = s.storage.Delete(context.WithoutCancel(ctx), s.name)
		}
	}
	for _, f := range d.files {
		file := structs.At[files.File](f.Struct.Addr(base))
		if err := f.updateDimensions(base, file); err != nil {
			undo()
			return noUndo, fmt.Errorf("models: %s.%s: %w", d.Meta.Name, f.Name, err)
		}
		if file == nil || file.Upload == nil {
			continue
		}
		name, err := f.generateFilename(item, file.Upload.Filename, now)
		var taken bool
		if err == nil {
			taken, err = f.Storage.Exists(ctx, name)
		}
		if err == nil {
			err = file.Save(ctx, f.Storage, name, f.MaxLength)
		}
		if err != nil {
			undo()
			return noUndo, fmt.Errorf("models: %s.%s: %w", d.Meta.Name, f.Name, err)
		}
		if !taken || file.Name != name {
			// A storage that overwrites (S3's AWS_S3_FILE_OVERWRITE) put
			// the upload in place of a file another row may name: a
			// failed write leaves it rather than delete that row's file.
			done = append(done, stored{f.Storage, file.Name})
		}
	}
	return undo, nil
}

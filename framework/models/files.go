package models

import (
	"context"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/go-drf/drf/framework/files"
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
		if !f.isFile() {
			continue
		}
		if f.MaxLength == 0 {
			f.MaxLength = defaultMaxLength
		}
		f.Storage = files.FileSystemStorage{}
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
// the row. item is the same item (a pointer to the model), which a
// Meta.UploadTo function is given. undo deletes the files stored, for a
// write that fails after; when one fails to store, those stored before it
// are deleted.
func (d *Description) SaveFiles(ctx context.Context, base unsafe.Pointer, item any, now time.Time) (undo func(), err error) {
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
		p := f.Struct.Addr(base)
		if p == nil || (*files.File)(p).Upload == nil {
			continue
		}
		file := (*files.File)(p)
		name, err := f.generateFilename(item, file.Upload.Filename, now)
		if err == nil {
			err = file.Save(ctx, f.Storage, name, f.MaxLength)
		}
		if err != nil {
			undo()
			return noUndo, fmt.Errorf("models: %s.%s: %w", d.Meta.Name, f.Name, err)
		}
		done = append(done, stored{f.Storage, file.Name})
	}
	return undo, nil
}

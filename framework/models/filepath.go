package models

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/go-drf/drf/internal/structs"
)

// FilePath is a FilePathField's options, Django's models.FilePathField(
// path, match, recursive, allow_files, allow_folders): its choices are
// the names of the files and/or folders under Path, which forms and
// serializers read.
type FilePath struct {
	// Path is the folder whose entries are the choices.
	Path string
	// Match is a regular expression a choice's name is searched by; ""
	// for any name.
	Match string
	// Recursive includes the entries of Path's folders, all the way down.
	Recursive bool
	// AllowFiles and AllowFolders include files and folders; Django's
	// defaults are true and false.
	AllowFiles, AllowFolders bool
}

// filePathOption applies a model tag option of a FilePathField
// (path=DIR, match=REGEX, recursive, allow_files, allow_folders, each
// boolean true without a value).
func (f *Field) filePathOption(key, val string, hasVal bool) (err error) {
	fp := f.FilePath
	if fp == nil {
		fp = &FilePath{AllowFiles: true}
		f.FilePath = fp
	}
	switch key {
	case "path":
		fp.Path = val
	case "match":
		fp.Match = val
	default:
		on := true
		if hasVal {
			on, err = strconv.ParseBool(val)
		}
		*map[string]*bool{"recursive": &fp.Recursive, "allow_files": &fp.AllowFiles, "allow_folders": &fp.AllowFolders}[key] = on
	}
	return err
}

// filePathField checks a FilePathField (kind, from field=FilePathField,
// or "" when path= alone makes the field one) and gives it Django's
// max_length of 100; it returns the field's kind.
func (f *Field) filePathField(sf *structs.Field, kind Kind) (Kind, error) {
	fp := f.FilePath
	switch {
	case fp == nil && kind != FilePathField:
		return kind, nil
	case kind != "" && kind != FilePathField:
		return kind, fmt.Errorf("path, match, recursive, allow_files and allow_folders need a FilePathField, not field=%s", kind)
	case sf.Kind != structs.String:
		return kind, fmt.Errorf("a FilePathField is a string, not %v", sf.Type)
	case fp == nil || fp.Path == "":
		return kind, fmt.Errorf("a FilePathField needs path=")
	case !fp.AllowFiles && !fp.AllowFolders:
		// Django's check fields.E140.
		return kind, fmt.Errorf("FilePathFields must have either 'allow_files' or 'allow_folders' set to True.")
	}
	if fp.Match != "" {
		if _, err := regexp.Compile(fp.Match); err != nil {
			return kind, fmt.Errorf("match=%s: %w", fp.Match, err)
		}
	}
	if f.MaxLength == 0 {
		f.MaxLength = defaultMaxLength
	}
	return FilePathField, nil
}

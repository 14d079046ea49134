// Package files is Django's django.core.files: the Storage interface that
// file fields save through, FileSystemStorage (MEDIA_ROOT and MEDIA_URL),
// Media (MEDIA_URL served in development, as Django's static() serves
// it), and the name rules every storage shares: validate_file_name,
// get_valid_filename and get_available_name with its random 7-character
// suffix. contrib/storages/s3 is django-storages' S3 backend on the same
// interface.
package files

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/random"
)

// Storage is Django's Storage: where a file field keeps its files, each
// known by its name, a relative path with "/" separators.
type Storage interface {
	// Save writes content under name, or under the name AvailableName
	// finds when name is taken or longer than maxLength characters (0:
	// no limit), and returns the name used. A name Django refuses
	// (ValidateFileName) is a *SuspiciousFileOperation.
	Save(ctx context.Context, name string, content io.Reader, maxLength int) (string, error)
	// Open returns the file's content; a missing file is an error
	// matching fs.ErrNotExist.
	Open(ctx context.Context, name string) (io.ReadCloser, error)
	// Delete removes the file; a missing file is no error.
	Delete(ctx context.Context, name string) error
	// Exists reports whether a file of that name exists.
	Exists(ctx context.Context, name string) (bool, error)
	// Size returns the file's size in bytes.
	Size(ctx context.Context, name string) (int64, error)
	// URL returns the URL the file is served at.
	URL(ctx context.Context, name string) (string, error)
}

// SuspiciousFileOperation is Django's exception of that name: a file name
// that would escape the storage or names no file.
type SuspiciousFileOperation struct {
	// Message is Django's.
	Message string
}

func (e *SuspiciousFileOperation) Error() string { return e.Message }

func suspicious(format string, args ...any) error {
	return &SuspiciousFileOperation{Message: fmt.Sprintf(format, args...)}
}

// ValidateFileName is Django's validate_file_name: a name whose last
// element is "", "." or ".." names no file; with allowRelativePath a
// relative path is allowed, but not an absolute one nor one with a ".."
// element ("\" read as "/"); without, any path element is refused.
func ValidateFileName(name string, allowRelativePath bool) error {
	if base := basename(name); base == "" || base == "." || base == ".." {
		return suspicious("Could not derive file name from '%s'", name)
	}
	if allowRelativePath {
		p := strings.ReplaceAll(name, `\`, "/")
		if strings.HasPrefix(p, "/") || hasDotDot(p) {
			return suspicious("Detected path traversal attempt in '%s'", name)
		}
	} else if name != basename(name) {
		return suspicious("File name '%s' includes path elements", name)
	}
	return nil
}

// ValidFilename is Django's get_valid_filename: spaces at the ends
// removed, the others made "_", and every character but letters, digits,
// "_", "-" and "." dropped ("john's portrait in 2004.jpg" is
// "johns_portrait_in_2004.jpg"); nothing left, "." or ".." is an error.
func ValidFilename(name string) (string, error) {
	s := strings.ReplaceAll(strings.TrimFunc(name, isPySpace), " ", "_")
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '.' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) {
			return r
		}
		return -1
	}, s)
	if s == "" || s == "." || s == ".." {
		return "", suspicious("Could not derive file name from '%s'", name)
	}
	return s, nil
}

// UploadedName is the name Django's UploadedFile gives an uploaded file:
// what follows the last "/", cut to 255 characters keeping its extension,
// and refused as ValidateFileName refuses it.
func UploadedName(name string) (string, error) {
	name = basename(name)
	if r := []rune(name); len(r) > 255 {
		root, ext := splitext(name)
		e := []rune(ext)
		e = e[:min(len(e), 255)]
		name = string([]rune(root)[:255-len(e)]) + string(e)
	}
	if err := ValidateFileName(name, false); err != nil {
		return "", err
	}
	return name, nil
}

// alternativeName is Django's get_alternative_name: root, "_", seven
// random letters and digits, then ext ("photo.jpg" gives
// "photo_AbC1234.jpg").
func alternativeName(root, ext string) string {
	return root + "_" + random.String(7, randomStringChars) + ext
}

// randomStringChars is Django's RANDOM_STRING_CHARS.
const randomStringChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// AvailableName is Django's get_available_name: name ("\" read as "/")
// while available tells it is free and it is at most maxLength characters
// (0: no limit), otherwise an alternativeName in the same directory, its
// root cut as needed to fit maxLength. The extension is every suffix of
// the file name (".tar.gz"), as Django 5.2 splits it, or only the last
// at compat.DRF314 (Django 3.2). A directory with a ".." element, or a
// root cut to nothing, is a *SuspiciousFileOperation.
func AvailableName(name string, maxLength int, level compat.Level, available func(name string) (bool, error)) (string, error) {
	return availableName(name, maxLength, level, available, alternativeName)
}

// availableName is AvailableName with the storage's get_alternative_name.
func availableName(name string, maxLength int, level compat.Level, available func(name string) (bool, error), alternative func(root, ext string) string) (string, error) {
	name = strings.ReplaceAll(name, `\`, "/")
	dir, file := split(name)
	if hasDotDot(dir) {
		return "", suspicious("Detected path traversal attempt in '%s'", dir)
	}
	if err := ValidateFileName(file, false); err != nil {
		return "", err
	}
	var root, ext string
	if level == compat.DRF314 {
		root, ext = splitext(file)
	} else {
		ext = suffixes(file)
		root = strings.TrimSuffix(file, ext)
	}
	for {
		tooLong := maxLength > 0 && runeLen(name) > maxLength
		if !tooLong {
			free, err := available(name)
			if err != nil {
				return "", err
			}
			if free {
				return name, nil
			}
		}
		name = join(dir, alternative(root, ext))
		if maxLength <= 0 {
			continue
		}
		if cut := runeLen(name) - maxLength; cut > 0 {
			r := []rune(root)
			root = string(r[:max(0, len(r)-cut)])
			if root == "" {
				return "", suspicious("Storage can not find an available filename for \"%s\". "+
					"Please make sure that the corresponding file field allows sufficient \"max_length\".", name)
			}
			name = join(dir, alternative(root, ext))
		}
	}
}

func runeLen(s string) int { return len([]rune(s)) }

// basename is Python's posixpath.basename.
func basename(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// split is Python's posixpath.split: the directory without its trailing
// slashes (unless it is only slashes), and the file name.
func split(p string) (dir, file string) {
	i := strings.LastIndexByte(p, '/') + 1
	dir, file = p[:i], p[i:]
	if strings.Trim(dir, "/") != "" {
		dir = strings.TrimRight(dir, "/")
	}
	return dir, file
}

// join is Python's posixpath.join of a directory and a file name.
func join(dir, file string) string {
	if dir == "" || strings.HasSuffix(dir, "/") {
		return dir + file
	}
	return dir + "/" + file
}

// hasDotDot reports whether ".." is one of the path's elements.
func hasDotDot(p string) bool {
	for e := range strings.SplitSeq(p, "/") {
		if e == ".." {
			return true
		}
	}
	return false
}

// splitext is Python's posixpath.splitext of a file name: the extension
// is from the last ".", unless only dots precede it.
func splitext(name string) (root, ext string) {
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || strings.Trim(name[:dot], ".") == "" {
		return name, ""
	}
	return name[:dot], name[dot:]
}

// suffixes is "".join(pathlib.PurePath(name).suffixes) on Python 3.11:
// every "."-part after the first, none for a name ending in ".", leading
// dots ignored.
func suffixes(name string) string {
	if strings.HasSuffix(name, ".") {
		return ""
	}
	trimmed := strings.TrimLeft(name, ".")
	if i := strings.IndexByte(trimmed, '.'); i >= 0 {
		return trimmed[i:]
	}
	return ""
}

// isPySpace is what Python's str.strip() removes.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || 0x1C <= r && r <= 0x1F }

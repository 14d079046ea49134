package files

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/pycompat"
)

// FileSystemStorage is Django's FileSystemStorage, the default storage:
// files under Location (MEDIA_ROOT), served at BaseURL (MEDIA_URL).
type FileSystemStorage struct {
	// Location is MEDIA_ROOT, the directory files are saved in; "" is
	// the working directory, as Django's default MEDIA_ROOT.
	Location string
	// BaseURL is MEDIA_URL ("/media/"); a "/" is added when it lacks
	// one. "" gives URLs that are the quoted names.
	BaseURL string
	// FilePermissions is FILE_UPLOAD_PERMISSIONS; 0 gives Django's 0o644.
	FilePermissions fs.FileMode
	// DirectoryPermissions is FILE_UPLOAD_DIRECTORY_PERMISSIONS, the mode
	// of the directories Save creates; 0 gives 0o777 less the umask.
	DirectoryPermissions fs.FileMode
	// AllowOverwrite replaces a file of the same name rather than finding
	// an available one (allow_overwrite, Django 5.1); a name longer than
	// maxLength has its root cut to fit.
	AllowOverwrite bool
	// Compatibility is the Django release whose available names Save
	// gives (AvailableName).
	Compatibility compat.Level
}

// Path returns the file's path on disk: name joined to Location, refused
// as Django's safe_join refuses a name that leaves it.
func (s FileSystemStorage) Path(name string) (string, error) {
	root, err := filepath.Abs(s.Location)
	if err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(name))
	if full != root && !strings.HasPrefix(full, root+string(filepath.Separator)) {
		return "", suspicious("The joined path (%s) is located outside of the base path component (%s)", full, root)
	}
	return full, nil
}

// Save writes content to a new file under Location, creating its
// directories; the name is validated as Django validates it, and a name
// taken (or over maxLength) gets AvailableName's. The file gets
// FilePermissions. A file half-written when content fails to read is
// removed.
func (s FileSystemStorage) Save(ctx context.Context, name string, content io.Reader, maxLength int) (string, error) {
	if err := ValidateFileName(name, true); err != nil {
		return "", err
	}
	alternative := alternativeName
	if s.AllowOverwrite {
		alternative = func(root, ext string) string { return root + ext }
	}
	name, err := availableName(name, maxLength, s.Compatibility, func(n string) (bool, error) {
		if s.AllowOverwrite {
			return true, nil
		}
		ok, err := s.Exists(ctx, n)
		return !ok, err
	}, alternative)
	if err != nil {
		return "", err
	}
	if err := ValidateFileName(name, true); err != nil {
		return "", err
	}
	for {
		full, err := s.Path(name)
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(full), cmpMode(s.DirectoryPermissions, 0o777)); err != nil {
			return "", err
		}
		flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
		if s.AllowOverwrite {
			flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		}
		f, err := os.OpenFile(full, flags, 0o666)
		if errors.Is(err, fs.ErrExist) {
			// Taken since AvailableName looked: find another, as Django does.
			if name, err = AvailableName(name, 0, s.Compatibility, func(n string) (bool, error) {
				ok, err := s.Exists(ctx, n)
				return !ok, err
			}); err != nil {
				return "", err
			}
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = io.Copy(f, content)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(full, cmpMode(s.FilePermissions, 0o644))
		}
		if err != nil {
			_ = os.Remove(full)
			return "", err
		}
		return name, nil
	}
}

func cmpMode(m, def fs.FileMode) fs.FileMode {
	if m == 0 {
		return def
	}
	return m
}

// Open opens the file for reading.
func (s FileSystemStorage) Open(_ context.Context, name string) (io.ReadCloser, error) {
	full, err := s.Path(name)
	if err != nil {
		return nil, err
	}
	return os.Open(full)
}

// Delete removes the file (an empty directory too); a missing one is no
// error. An empty name is an error, as in Django.
func (s FileSystemStorage) Delete(_ context.Context, name string) error {
	if name == "" {
		return errors.New("files: the name must be given to Delete")
	}
	full, err := s.Path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Exists reports whether the name is taken (a broken symlink too, as
// Django's os.path.lexists).
func (s FileSystemStorage) Exists(_ context.Context, name string) (bool, error) {
	full, err := s.Path(name)
	if err != nil {
		return false, err
	}
	_, err = os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Size returns the file's size.
func (s FileSystemStorage) Size(_ context.Context, name string) (int64, error) {
	full, err := s.Path(name)
	if err != nil {
		return 0, err
	}
	st, err := os.Stat(full)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// URL is Django's FileSystemStorage.url: BaseURL followed by the name
// quoted as filepath_to_uri quotes it, leading slashes removed.
func (s FileSystemStorage) URL(_ context.Context, name string) (string, error) {
	return s.baseURL() + strings.TrimLeft(pycompat.FilepathToURI(name), "/"), nil
}

func (s FileSystemStorage) baseURL() string {
	if s.BaseURL != "" && !strings.HasSuffix(s.BaseURL, "/") {
		return s.BaseURL + "/"
	}
	return s.BaseURL
}

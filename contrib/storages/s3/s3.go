// Package s3 is django-storages' S3 backend (storages.backends.s3.S3Storage):
// a files.Storage that keeps files as objects of an S3 bucket, on AWS or
// any S3-compatible server, with django-storages' settings and answers:
// objects overwritten by default (AWS_S3_FILE_OVERWRITE), signed URLs
// that expire (AWS_QUERYSTRING_AUTH, AWS_QUERYSTRING_EXPIRE), plain ones
// on a custom domain (AWS_S3_CUSTOM_DOMAIN), keys under a prefix
// (AWS_LOCATION).
package s3

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/internal/pycompat"
)

// Settings are django-storages' S3 settings, by their names.
type Settings struct {
	// BucketName is AWS_STORAGE_BUCKET_NAME (required).
	BucketName string
	// EndpointURL is AWS_S3_ENDPOINT_URL ("http://127.0.0.1:7070", or a
	// provider's); "" gives AWS's endpoint for RegionName.
	EndpointURL string
	// RegionName is AWS_S3_REGION_NAME; "" gives "us-east-1".
	RegionName string
	// AccessKeyID and SecretAccessKey are AWS_S3_ACCESS_KEY_ID and
	// AWS_S3_SECRET_ACCESS_KEY; both "" read the AWS environment
	// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN).
	AccessKeyID, SecretAccessKey string
	// CustomDomain is AWS_S3_CUSTOM_DOMAIN ("cdn.example.com"): URLs are
	// URLProtocol//CustomDomain/key, never signed.
	CustomDomain string
	// URLProtocol is AWS_S3_URL_PROTOCOL of custom-domain URLs; "" gives
	// "https:".
	URLProtocol string
	// NoQuerystringAuth is AWS_QUERYSTRING_AUTH = False: URLs are plain,
	// for a public bucket. By default they are signed.
	NoQuerystringAuth bool
	// QuerystringExpire is AWS_QUERYSTRING_EXPIRE, how long a signed URL
	// works; 0 gives django-storages' 3600 seconds.
	QuerystringExpire time.Duration
	// Location is AWS_LOCATION, the prefix of every key ("media").
	Location string
	// NoFileOverwrite is AWS_S3_FILE_OVERWRITE = False: a name taken gets
	// Django's available name (files.AvailableName). By default a file
	// of the same name is replaced.
	NoFileOverwrite bool
	// PartSize is the size of the parts a file of unknown size is sent
	// in, each held in memory; 0 gives 16 MiB.
	PartSize uint64
}

// Storage is a files.Storage on an S3 bucket.
type Storage struct {
	settings Settings
	client   *minio.Client
	endpoint *url.URL
}

var _ files.Storage = (*Storage)(nil)

// New returns the storage of s. A setting missing or malformed is an
// error naming it.
func New(s Settings) (*Storage, error) {
	if s.BucketName == "" {
		return nil, errors.New("s3: AWS_STORAGE_BUCKET_NAME (Settings.BucketName) is required")
	}
	if (s.AccessKeyID == "") != (s.SecretAccessKey == "") {
		return nil, errors.New("s3: AWS_S3_ACCESS_KEY_ID and AWS_S3_SECRET_ACCESS_KEY (Settings.AccessKeyID, SecretAccessKey) go together")
	}
	s.RegionName = cmp.Or(s.RegionName, "us-east-1")
	s.URLProtocol = cmp.Or(s.URLProtocol, "https:")
	s.QuerystringExpire = cmp.Or(s.QuerystringExpire, 3600*time.Second)
	s.PartSize = cmp.Or(s.PartSize, 16<<20)
	s.Location = strings.Trim(s.Location, "/")
	endpoint := cmp.Or(s.EndpointURL, "https://s3."+s.RegionName+".amazonaws.com")
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return nil, fmt.Errorf("s3: AWS_S3_ENDPOINT_URL (Settings.EndpointURL) %q is not an http(s) URL of a host", s.EndpointURL)
	}
	creds := credentials.NewEnvAWS()
	if s.AccessKeyID != "" {
		creds = credentials.NewStaticV4(s.AccessKeyID, s.SecretAccessKey, "")
	}
	lookup := minio.BucketLookupAuto
	if s.EndpointURL != "" {
		// boto3 addresses a bucket by path on an endpoint of one's own.
		lookup = minio.BucketLookupPath
	}
	client, err := minio.New(u.Host, &minio.Options{Creds: creds, Secure: u.Scheme == "https", Region: s.RegionName, BucketLookup: lookup})
	if err != nil {
		return nil, fmt.Errorf("s3: %w", err)
	}
	return &Storage{settings: s, client: client, endpoint: u}, nil
}

// key is the object key of name: Location joined to the cleaned name,
// refused when it would leave Location (django-storages' safe_join).
func (s *Storage) key(name string) (string, error) {
	name = cleanName(name)
	if name == ".." || strings.HasPrefix(name, "../") || strings.HasPrefix(name, "/") {
		return "", &files.SuspiciousFileOperation{Message: fmt.Sprintf("Attempted access to '%s' denied.", name)}
	}
	if s.settings.Location == "" {
		return name, nil
	}
	return s.settings.Location + "/" + name, nil
}

// cleanName is django-storages' clean_name: "\" read as "/", the path
// normalised, a trailing "/" kept, "." nothing.
func cleanName(name string) string {
	if name == "" {
		return ""
	}
	name = strings.ReplaceAll(name, `\`, "/")
	clean := path.Clean(name)
	if strings.HasSuffix(name, "/") && !strings.HasSuffix(clean, "/") {
		clean += "/"
	}
	if clean == "." {
		return ""
	}
	return clean
}

// Save uploads content under name, or the name django-storages picks:
// the same one, cut to maxLength, when it overwrites (the default), else
// files.AvailableName's. The object's Content-Type is the one the name's
// extension gives.
func (s *Storage) Save(ctx context.Context, name string, content io.Reader, maxLength int) (string, error) {
	if err := files.ValidateFileName(name, true); err != nil {
		return "", err
	}
	name = cleanName(name)
	var err error
	if s.settings.NoFileOverwrite {
		name, err = files.AvailableName(name, maxLength, compat.Current, func(n string) (bool, error) {
			ok, err := s.Exists(ctx, n)
			return !ok, err
		})
	} else {
		name, err = overwriteName(name, maxLength)
	}
	if err != nil {
		return "", err
	}
	if err := files.ValidateFileName(name, true); err != nil {
		return "", err
	}
	key, err := s.key(name)
	if err != nil {
		return "", err
	}
	size := int64(-1)
	switch c := content.(type) {
	case interface{ Size() int64 }:
		size = c.Size()
	case *os.File:
		if st, err := c.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	opts := minio.PutObjectOptions{ContentType: contentType(name), PartSize: s.settings.PartSize}
	if _, err := s.client.PutObject(ctx, s.settings.BucketName, key, content, size, opts); err != nil {
		return "", fmt.Errorf("s3: save %q: %w", name, err)
	}
	return name, nil
}

// contentType is the type django-storages gives an object,
// mimetypes.guess_type's of its name, application/octet-stream for none.
func contentType(name string) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// overwriteName is django-storages' get_available_overwrite_name: name as
// it is, its root cut when it is longer than maxLength (0: no limit).
func overwriteName(name string, maxLength int) (string, error) {
	r := []rune(name)
	if maxLength <= 0 || len(r) <= maxLength {
		return name, nil
	}
	dir, file := path.Split(name)
	ext := path.Ext(file)
	if strings.Trim(strings.TrimSuffix(file, ext), ".") == "" {
		ext = ""
	}
	root := []rune(strings.TrimSuffix(file, ext))
	cut := len(r) - maxLength
	if cut >= len(root) {
		return "", &files.SuspiciousFileOperation{Message: fmt.Sprintf(
			"Storage tried to truncate away entire filename \"%s\". Please make sure that the corresponding file field allows sufficient \"max_length\".", name)}
	}
	return dir + string(root[:len(root)-cut]) + ext, nil
}

// Open returns the object's content; a missing object is fs.ErrNotExist.
func (s *Storage) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.settings.BucketName, key, minio.GetObjectOptions{})
	if err == nil {
		_, err = obj.Stat()
	}
	if err != nil {
		if obj != nil {
			_ = obj.Close()
		}
		return nil, s.fail("open", name, err)
	}
	return obj, nil
}

// Delete removes the object; a missing one is no error.
func (s *Storage) Delete(ctx context.Context, name string) error {
	key, err := s.key(name)
	if err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.settings.BucketName, key, minio.RemoveObjectOptions{}); err != nil {
		if err := s.fail("delete", name, err); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Exists reports whether the object exists.
func (s *Storage) Exists(ctx context.Context, name string) (bool, error) {
	_, err := s.stat(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Size returns the object's size.
func (s *Storage) Size(ctx context.Context, name string) (int64, error) {
	info, err := s.stat(ctx, name)
	return info.Size, err
}

func (s *Storage) stat(ctx context.Context, name string) (minio.ObjectInfo, error) {
	key, err := s.key(name)
	if err != nil {
		return minio.ObjectInfo{}, err
	}
	info, err := s.client.StatObject(ctx, s.settings.BucketName, key, minio.StatObjectOptions{})
	if err != nil {
		return info, s.fail("stat", name, err)
	}
	return info, nil
}

// fail wraps an S3 error; a missing object matches fs.ErrNotExist.
func (s *Storage) fail(op, name string, err error) error {
	if r := minio.ToErrorResponse(err); r.Code == minio.NoSuchKey || r.StatusCode == http.StatusNotFound && r.Code != minio.NoSuchBucket {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return fmt.Errorf("s3: %s %q: %w", op, name, err)
}

// URL is django-storages' url: on CustomDomain,
// URLProtocol//CustomDomain/key quoted as Django's filepath_to_uri; else
// the object's URL on the endpoint, signed to work for QuerystringExpire
// unless NoQuerystringAuth.
func (s *Storage) URL(ctx context.Context, name string) (string, error) {
	key, err := s.key(name)
	if err != nil {
		return "", err
	}
	if s.settings.CustomDomain != "" {
		return s.settings.URLProtocol + "//" + s.settings.CustomDomain + "/" + pycompat.FilepathToURI(key), nil
	}
	if s.settings.NoQuerystringAuth {
		u := *s.endpoint
		u.Path = "/" + s.settings.BucketName + "/" + key
		u.RawPath = "/" + s.settings.BucketName + "/" + pycompat.Quote(key)
		return u.String(), nil
	}
	u, err := s.client.PresignedGetObject(ctx, s.settings.BucketName, key, s.settings.QuerystringExpire, nil)
	if err != nil {
		return "", fmt.Errorf("s3: url %q: %w", name, err)
	}
	return u.String(), nil
}

package serializers_test

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/schemas"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
)

// drfUpload is testdata/drf_files.py's UploadSerializer.
type drfUpload struct {
	File  files.File  `json:"file" drf:"required,max_length=20"`
	Image files.File  `json:"image" drf:"image"`
	Doc   *files.File `json:"doc" drf:"allow_empty_file,allow_null"`
}

// drfFileBook is testdata/drf_files.py's Book.
type drfFileBook struct {
	ID         int64       `db:"id" json:"-"`
	Title      string      `db:"title" json:"title" model:"max_length=50"`
	Attachment files.File  `db:"attachment" json:"attachment" model:"upload_to=files/%Y/"`
	Cover      *files.File `db:"cover" json:"cover" model:"field=ImageField,upload_to=covers/,blank"`
}

func (drfFileBook) Meta() models.Meta {
	media := files.FileSystemStorage{BaseURL: "/media/"}
	return models.Meta{App: "shelf", Name: "Book",
		Storage: map[string]files.Storage{"attachment": media, "cover": media}}
}

// drfBookNames is testdata/drf_files.py's NameSerializer.
type drfBookNames struct {
	ID         int64       `db:"id" json:"-"`
	Attachment files.File  `db:"attachment" json:"attachment" model:"upload_to=files/%Y/" drf:"use_url=false"`
	Cover      *files.File `db:"cover" json:"cover" model:"field=ImageField,upload_to=covers/,blank"`
}

func (drfBookNames) Meta() models.Meta {
	return models.Meta{App: "shelf", Name: "Book",
		Storage: map[string]files.Storage{"cover": files.FileSystemStorage{BaseURL: "/media/"}}}
}

type drfFiles struct {
	Cases []struct {
		Label   string          `json:"label"`
		Partial bool            `json:"partial"`
		Body    string          `json:"body"`
		Data    json.RawMessage `json:"data"`
		Errors  json.RawMessage `json:"errors"`
	} `json:"cases"`
	JSON []struct {
		Body   string          `json:"body"`
		Valid  bool            `json:"valid"`
		Errors json.RawMessage `json:"errors"`
	} `json:"json"`
	Representations map[string]json.RawMessage `json:"representations"`
	Options         json.RawMessage            `json:"options"`
	ModelOptions    json.RawMessage            `json:"model_options"`
	OpenAPI         struct {
		Properties map[string]map[string]any `json:"properties"`
	} `json:"openapi"`
}

// TestFileFieldsAsDRF sends the multipart bodies of testdata/drf_files.py
// (run with DRF 3.14 / Django 3.2 and DRF 3.18 / Django 5.2, both with
// Debian's Pillow) through the MultiPartParser to a FileField, an
// ImageField and a FileField of allow_empty_file and allow_null, and
// compares each answer with DRF's: a file, none, text, an empty file, a
// name too long, images of each format, corrupt ones and a decompression
// bomb; then JSON input, the representations of a model's file fields
// (absolute URLs through the request, names with use_url=False), OPTIONS
// and the OpenAPI schemas of the fields.
func TestFileFieldsAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfFiles
			drfsuite.RunDRF(t, compatibility, "testdata/drf_files.py", nil, &drf)
			if len(drf.Cases) == 0 {
				t.Fatal("no cases")
			}
			s := serializers.MustNew[drfUpload]()
			api := framework.NewAPI(nil, framework.Settings{})
			api.Handle("/upload/", framework.View{
				Post: func(v *framework.View, r *request.Request) (*framework.Response, error) {
					return validateUpload(s, r, false)
				},
				Patch: func(v *framework.View, r *request.Request) (*framework.Response, error) {
					return validateUpload(s, r, true)
				},
			})
			c := apitest.New(t, api)
			for _, tc := range drf.Cases {
				body, err := base64.StdEncoding.DecodeString(tc.Body)
				if err != nil {
					t.Fatal(err)
				}
				method := "POST"
				if tc.Partial {
					method = "PATCH"
				}
				r := c.Do(method, "/upload/", string(body), "Content-Type: multipart/form-data; boundary=BoUnDaRy")
				status, want := 200, tc.Data
				if tc.Errors != nil {
					status, want = 400, tc.Errors
				}
				if r.Status != status || !sameJSON(t, []byte(r.Body), want) {
					t.Errorf("%s: %d %s\nDRF: %d %s", tc.Label, r.Status, r.Body, status, want)
				}
			}
			for _, tc := range drf.JSON {
				r := c.Do("PATCH", "/upload/", tc.Body)
				status, want := 400, tc.Errors
				if tc.Valid {
					status = 200
				}
				if r.Status != status || (!tc.Valid && !sameJSON(t, []byte(r.Body), want)) {
					t.Errorf("JSON %s: %d %s\nDRF: %d %s", tc.Body, r.Status, r.Body, status, want)
				}
			}
			if got := s.FieldInfo(); !sameJSON(t, got, drf.Options) {
				t.Errorf("OPTIONS: %s\nDRF: %s", got, drf.Options)
			}
			for _, f := range s.Description().Fields {
				want := drf.OpenAPI.Properties[f.Name]
				if want["nullable"] == true {
					// OpenAPI 3.0's nullable, 3.1's type with "null".
					delete(want, "nullable")
					want["type"] = []any{want["type"], "null"}
				}
				js, err := json.Marshal(schemas.FieldSchema(f))
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal(js, &got); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("OpenAPI of %s: %s, DRF's %v", f.Name, js, want)
				}
			}
			books := serializers.MustNew[drfFileBook]()
			if got := books.FieldInfo(); !sameJSON(t, got, drf.ModelOptions) {
				t.Errorf("OPTIONS of the model: %s\nDRF: %s", got, drf.ModelOptions)
			}
			book := drfFileBook{Title: "t", Attachment: files.File{Name: "files/2024/a b.txt"}, Cover: &files.File{}}
			names := drfBookNames{Attachment: files.File{Name: "files/a b.txt"}, Cover: &files.File{Name: "covers/c.png"}}
			api.Handle("/books/", framework.View{Get: func(v *framework.View, r *request.Request) (*framework.Response, error) {
				ctx := &serializers.Context{Request: r}
				one, err := books.Data(&book, ctx)
				if err != nil {
					return nil, err
				}
				none, err := books.Data(&drfFileBook{Title: "t", Attachment: files.File{Name: "files/x.txt"}}, ctx)
				if err != nil {
					return nil, err
				}
				bare, err := books.Data(&book, nil)
				if err != nil {
					return nil, err
				}
				named, err := serializers.MustNew[drfBookNames]().Data(&names, ctx)
				if err != nil {
					return nil, err
				}
				return framework.OK(map[string]json.RawMessage{"with request": one, "no cover": none, "without request": bare, "names": named}), nil
			}})
			r := c.Get("/books/", "Host: testserver")
			var got map[string]json.RawMessage
			if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
				t.Fatalf("%s: %v", r.Body, err)
			}
			for k, want := range drf.Representations {
				if !sameJSON(t, got[k], want) {
					t.Errorf("representation %s: %s\nDRF: %s", k, got[k], want)
				}
			}
		})
	}
}

// validateUpload answers the names and sizes of the files s validated
// from the request, as the script prints DRF's validated_data, or the
// errors.
func validateUpload(s *serializers.Serializer[drfUpload], r *request.Request, partial bool) (*framework.Response, error) {
	data, err := serializers.RequestData(r)
	if err != nil {
		return nil, err
	}
	obj := drfUpload{Doc: &files.File{Name: "old.txt"}}
	if err := s.Validate(data, &obj, partial, &serializers.Context{Request: r}); err != nil {
		return nil, err
	}
	out := map[string]any{}
	for name, f := range map[string]*files.File{"file": &obj.File, "image": &obj.Image, "doc": obj.Doc} {
		switch {
		case f == nil:
			out[name] = nil
		case f.Upload != nil:
			if f.Name != f.Upload.Filename || strings.Contains(f.Name, "/") {
				out[name] = "bad name " + f.Name
				continue
			}
			out[name] = []any{f.Name, f.Upload.Size}
		}
	}
	return framework.OK(out), nil
}

package models_test

import (
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/models"
)

type fpReport struct {
	ID       int64   `db:"id"`
	Template string  `db:"template" model:"path=/srv/templates"`
	Sheet    string  `db:"sheet" model:"field=FilePathField,path=/srv/sheets,match=[.]csv$,recursive,allow_files=false,allow_folders,max_length=200"`
	Folder   *string `db:"folder" model:"path=/srv,allow_folders=true"`
}

func (fpReport) Meta() models.Meta { return models.Meta{App: "shelf"} }

// TestFilePathFields: path= (or field=FilePathField) makes a string a
// FilePathField of Django's options (allow_files true, the others false
// unless told) and max_length of 100; a FilePathField's bad options fail
// at setup, naming the field.
func TestFilePathFields(t *testing.T) {
	d, err := models.Of[fpReport]()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		maxLength int
		null      bool
		want      models.FilePath
	}{
		{"template", 100, false, models.FilePath{Path: "/srv/templates", AllowFiles: true}},
		{"sheet", 200, false, models.FilePath{Path: "/srv/sheets", Match: "[.]csv$", Recursive: true, AllowFolders: true}},
		{"folder", 100, true, models.FilePath{Path: "/srv", AllowFiles: true, AllowFolders: true}},
	} {
		f := d.Field(c.name)
		if f.Kind != models.FilePathField || f.MaxLength != c.maxLength || f.Null != c.null || f.FilePath == nil || *f.FilePath != c.want {
			t.Errorf("%s: %s max_length=%d null=%t %+v, want FilePathField max_length=%d null=%t %+v",
				c.name, f.Kind, f.MaxLength, f.Null, f.FilePath, c.maxLength, c.null, c.want)
		}
	}
	type noPath struct {
		ID  int64  `db:"id"`
		Doc string `db:"doc" model:"field=FilePathField"`
	}
	type neither struct {
		ID  int64  `db:"id"`
		Doc string `db:"doc" model:"path=/srv,allow_files=false"`
	}
	type onInt struct {
		ID  int64 `db:"id"`
		Doc int   `db:"doc" model:"path=/srv"`
	}
	type onEmail struct {
		ID  int64  `db:"id"`
		Doc string `db:"doc" model:"field=EmailField,recursive"`
	}
	type badMatch struct {
		ID  int64  `db:"id"`
		Doc string `db:"doc" model:"path=/srv,match=(unclosed"`
	}
	type badBool struct {
		ID  int64  `db:"id"`
		Doc string `db:"doc" model:"path=/srv,recursive=maybe"`
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errOf[noPath](), "noPath.Doc: a FilePathField needs path="},
		{errOf[neither](), "neither.Doc: FilePathFields must have either 'allow_files' or 'allow_folders' set to True."},
		{errOf[onInt](), "onInt.Doc: a FilePathField is a string, not int"},
		{errOf[onEmail](), "onEmail.Doc: path, match, recursive, allow_files and allow_folders need a FilePathField, not field=EmailField"},
		{errOf[badMatch](), "badMatch.Doc: match=(unclosed: error parsing regexp"},
		{errOf[badBool](), `badBool.Doc: strconv.ParseBool: parsing "maybe"`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}

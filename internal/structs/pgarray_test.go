package structs_test

import (
	"reflect"
	"testing"

	"github.com/go-drf/drf/internal/structs"
)

// pgRow has columns of PostgreSQL's array and hstore types.
type pgRow struct {
	Tags   []string           `db:"tags"`
	Scores []*int64           `db:"scores"`
	Flags  []bool             `db:"flags"`
	Ratios []float64          `db:"ratios"`
	Notes  *[]string          `db:"notes"`
	Attrs  map[string]*string `db:"attrs"`
	// Plain is a slice without a column: not read from a database.
	Plain []string `json:"plain"`
}

// TestCollectionColumns reads and writes arrays and hstores as
// PostgreSQL's text of them: elements quoted with their quotes and
// backslashes escaped, NULL for a nil element or value, and the text
// PostgreSQL writes (unquoted elements, a dimension) read back.
func TestCollectionColumns(t *testing.T) {
	s, err := structs.Of[pgRow]()
	if err != nil {
		t.Fatal(err)
	}
	one, two := int64(1), "x"
	row := pgRow{Tags: []string{`a,b`, `say "hi"`, `back\slash`, ``, `NULL`}, Scores: []*int64{&one, nil},
		Flags: []bool{true, false}, Ratios: []float64{0.5, 1e300}, Attrs: map[string]*string{"k": &two, "n": nil, `q"`: &two}}
	base := structs.AddrOf(&row)
	for _, c := range []struct {
		column, text string
	}{
		{"tags", `{"a,b","say \"hi\"","back\\slash","","NULL"}`},
		{"scores", `{1,NULL}`},
		{"flags", `{t,f}`},
		{"ratios", `{0.5,1e+300}`},
		{"attrs", `"k"=>"x", "n"=>NULL, "q\""=>"x"`},
	} {
		f := s.ByColumn(c.column)
		if f.Kind != structs.Custom {
			t.Fatalf("%s is of kind %v", c.column, f.Kind)
		}
		arg, err := f.Arg(base)
		if err != nil || arg != c.text {
			t.Errorf("%s's argument = %v, %v; want %s", c.column, arg, err, c.text)
		}
		var back pgRow
		if err := f.Scan(structs.AddrOf(&back), arg); err != nil {
			t.Fatalf("%s: %v", c.column, err)
		}
		if a, b := reflect.ValueOf(back).FieldByName(f.Name).Interface(), reflect.ValueOf(row).FieldByName(f.Name).Interface(); !reflect.DeepEqual(a, b) {
			t.Errorf("%s read back as %#v, want %#v", c.column, a, b)
		}
	}
	if arg, _ := s.ByColumn("notes").Arg(base); arg != nil {
		t.Errorf("a nil *[]string is %v, want NULL", arg)
	}
	if s.Fields[len(s.Fields)-1].Kind != structs.Unsupported {
		t.Errorf("a slice without a column is of kind %v", s.Fields[len(s.Fields)-1].Kind)
	}
	var got pgRow
	p := structs.AddrOf(&got)
	for col, text := range map[string]string{"tags": `[0:1]={ plain , "q"}`, "notes": `{}`, "scores": `{-3,null}`, "attrs": ``} {
		if err := s.ByColumn(col).Scan(p, text); err != nil {
			t.Errorf("%s %s: %v", col, text, err)
		}
	}
	if !reflect.DeepEqual(got.Tags, []string{"plain", "q"}) || got.Notes == nil || len(*got.Notes) != 0 ||
		len(got.Scores) != 2 || *got.Scores[0] != -3 || got.Scores[1] != nil || got.Attrs == nil || len(got.Attrs) != 0 {
		t.Errorf("read %#v", got)
	}
	for col, text := range map[string]string{"tags": `{{a},{b}}`, "scores": `{1,x}`, "flags": `{t`, "attrs": `"k"`, "ratios": `{NULL}`} {
		if err := s.ByColumn(col).Scan(p, text); err == nil {
			t.Errorf("%s %s read", col, text)
		}
	}
}

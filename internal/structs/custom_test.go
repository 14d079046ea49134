package structs

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// point is a user's own column type: "x,y" text in the database, an
// object in JSON.
type point struct{ X, Y int64 }

func (p *point) Scan(src any) error {
	s, ok := src.(string)
	if !ok {
		return errors.New("point: not text")
	}
	x, y, ok := strings.Cut(s, ",")
	if !ok {
		return errors.New("point: no comma")
	}
	var err error
	if p.X, err = strconv.ParseInt(x, 10, 64); err == nil {
		p.Y, err = strconv.ParseInt(y, 10, 64)
	}
	return err
}

func (p point) Value() (driver.Value, error) {
	return strconv.FormatInt(p.X, 10) + "," + strconv.FormatInt(p.Y, 10), nil
}

// halfValuer implements driver.Valuer without sql.Scanner.
type halfValuer struct{ n int }

func (h halfValuer) Value() (driver.Value, error) { return int64(h.n), nil }

type typed struct {
	ID    uuid.UUID       `db:"id"`
	Ref   *uuid.UUID      `db:"ref"`
	Price decimal.Decimal `db:"price"`
	Note  sql.NullString  `db:"note"`
	Count sql.NullInt32   `db:"count"`
	Seen  sql.NullTime    `db:"seen"`
	Flag  sql.Null[bool]  `db:"flag"`
	Data  json.RawMessage `db:"data"`
	At    point           `db:"at"`
}

func TestCustomKinds(t *testing.T) {
	s, err := Of[typed]()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		kind     Kind
		nullable bool
		format   string
	}{
		"id": {Custom, false, "uuid"}, "ref": {Custom, true, "uuid"}, "price": {Custom, false, "decimal"},
		"note": {String, true, ""}, "count": {Int, true, ""}, "seen": {Time, true, ""}, "flag": {Bool, true, ""},
		"data": {Custom, false, "json"}, "at": {Custom, false, ""},
	}
	for _, f := range s.Fields {
		w := want[f.Column]
		if f.Kind != w.kind || f.Nullable != w.nullable || f.Format != w.format || f.Supported() != nil {
			t.Errorf("%s: kind %d nullable %v format %q (%v), want %+v", f.Column, f.Kind, f.Nullable, f.Format, f.Supported(), w)
		}
	}
	type half struct {
		H halfValuer `db:"h"`
	}
	hs, _ := Of[half]()
	if err := hs.Fields[0].Supported(); err == nil || !strings.Contains(err.Error(), "does not implement sql.Scanner") {
		t.Errorf("a Valuer without Scanner: %v", err)
	}
}

func TestNullWrappersReadAndWriteInPlace(t *testing.T) {
	s, _ := Of[typed]()
	var m typed
	base := AddrOf(&m)
	note, count, seen, flag := s.ByColumn("note"), s.ByColumn("count"), s.ByColumn("seen"), s.ByColumn("flag")
	for _, f := range []*Field{note, count, seen, flag} {
		if !f.IsNull(base) || !f.Get(base).Null || !f.Addr(base).IsNil() {
			t.Errorf("%s: zero wrapper is not NULL", f.Column)
		}
	}
	at := time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)
	note.Set(base, Value{S: "hi"})
	count.Set(base, Value{I: -7})
	seen.Set(base, Value{T: at})
	flag.Set(base, Value{B: true})
	if m.Note != (sql.NullString{String: "hi", Valid: true}) || m.Count != (sql.NullInt32{Int32: -7, Valid: true}) ||
		m.Seen != (sql.NullTime{Time: at, Valid: true}) || m.Flag != (sql.Null[bool]{V: true, Valid: true}) {
		t.Errorf("set = %+v", m)
	}
	if got := note.Get(base); got.Null || got.S != "hi" || *At[string](note.Addr(base)) != "hi" {
		t.Errorf("get note = %+v", got)
	}
	note.SetNull(base)
	if m.Note.Valid || m.Note.String != "" {
		t.Errorf("SetNull = %+v", m.Note)
	}
	v, err := count.FromDB(nil)
	if err != nil || !v.Null {
		t.Errorf("FromDB(nil) = %+v, %v", v, err)
	}
}

func TestCustomValuesThroughTheirInterfaces(t *testing.T) {
	s, _ := Of[typed]()
	var m typed
	base := AddrOf(&m)
	id, ref, price, data, pt := s.ByColumn("id"), s.ByColumn("ref"), s.ByColumn("price"), s.ByColumn("data"), s.ByColumn("at")
	const u = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	if err := id.Scan(base, []byte(u)); err != nil || m.ID.String() != u {
		t.Fatalf("scan uuid = %v, %v", m.ID, err)
	}
	if err := ref.Scan(base, nil); err != nil || m.Ref != nil || !ref.IsNull(base) {
		t.Errorf("scan NULL into *uuid = %v, %v", m.Ref, err)
	}
	if err := ref.Scan(base, strings.ReplaceAll(u, "-", "")); err != nil || m.Ref == nil || m.Ref.String() != u {
		t.Errorf("scan hex into *uuid = %v, %v", m.Ref, err)
	}
	if err := price.Scan(base, "12.50"); err != nil || m.Price.String() != "12.5" {
		t.Errorf("scan decimal = %v, %v", m.Price, err)
	}
	if err := data.Scan(base, []byte(`{"a": [1, 2]}`)); err != nil || string(m.Data) != `{"a": [1, 2]}` {
		t.Errorf("scan json = %s, %v", m.Data, err)
	}
	if err := pt.Scan(base, "3,-4"); err != nil || m.At != (point{3, -4}) {
		t.Errorf("scan point = %v, %v", m.At, err)
	}
	if v := id.Get(base); v.Kind != String || v.S != u || v.Text() != u {
		t.Errorf("uuid value = %+v", v)
	}
	if arg, err := price.Arg(base); err != nil || arg != "12.5" {
		t.Errorf("decimal arg = %#v, %v", arg, err)
	}
	if arg, err := data.Arg(base); err != nil || arg != `{"a": [1, 2]}` {
		t.Errorf("json arg = %#v, %v", arg, err)
	}
	if arg, err := pt.Arg(base); err != nil || arg != "3,-4" {
		t.Errorf("point arg = %#v, %v", arg, err)
	}

	// Lookups parse text through the type and compare as its Valuer's value.
	v, err := id.Parse(strings.ToUpper(u))
	if err != nil || Compare(v, id.Get(base)) != 0 {
		t.Errorf("Parse(upper uuid) = %+v, %v", v, err)
	}
	if _, err := id.Parse("not-a-uuid"); !errors.Is(err, ErrInvalidValue) {
		t.Errorf("Parse(bad uuid) error = %v", err)
	}
	if v, err := price.Parse("12.500"); err != nil || v.S != "12.5" {
		t.Errorf("Parse(decimal) = %+v, %v", v, err)
	}
	if v, err := price.FromDB(float64(2.25)); err != nil || v.S != "2.25" {
		t.Errorf("FromDB(decimal) = %+v, %v", v, err)
	}

	// Marshalers: JSON first, then text.
	if jm, tm := price.Marshalers(base); jm == nil || tm == nil {
		t.Error("decimal has no marshalers")
	} else if js, _ := jm.MarshalJSON(); string(js) != `"12.5"` {
		t.Errorf("decimal json = %s", js)
	}
	if jm, tm := ref.Marshalers(base); jm != nil || tm == nil {
		t.Error("uuid: want a text marshaler only")
	}
	if jm, _ := data.Marshalers(base); jm == nil {
		t.Error("json.RawMessage has no json.Marshaler")
	}

	// Decoding from JSON.
	tmp := m
	tb := AddrOf(&tmp)
	for _, c := range []struct {
		f    *Field
		js   string
		fail bool
	}{
		// A refused value may leave the field changed (Validate decodes
		// into a copy), so the valid value comes last.
		{id, `12`, true}, {id, `"nope"`, true}, {id, `"` + u + `"`, false},
		{ref, `null`, false}, {price, `"x"`, true}, {price, `1.05`, false},
		{data, `{`, true}, {data, `[true, {"b": null}]`, false}, {pt, `true`, true}, {pt, `"1,2"`, false},
	} {
		err := c.f.Decode(tb, []byte(c.js))
		if (err != nil) != c.fail || (err != nil && !errors.Is(err, ErrDecode)) {
			t.Errorf("Decode(%s, %s) = %v", c.f.Column, c.js, err)
		}
	}
	if tmp.Ref != nil || tmp.Price.String() != "1.05" || string(tmp.Data) != `[true, {"b": null}]` || tmp.At != (point{1, 2}) {
		t.Errorf("decoded = %+v", tmp)
	}
	if m.Ref == nil || string(m.Data) != `{"a": [1, 2]}` {
		t.Errorf("decoding a copy changed the original: %+v", m)
	}
}

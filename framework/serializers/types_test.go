package serializers_test

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/serializers"
)

// celsius is a user's column type with a Scanner and a Valuer but no
// marshalers: it is written as its Valuer's value.
type celsius struct{ tenths int64 }

func (c *celsius) Scan(src any) error {
	n, ok := src.(int64)
	if !ok {
		return errors.New("celsius: not an integer")
	}
	c.tenths = n
	return nil
}

func (c celsius) Value() (driver.Value, error) { return c.tenths, nil }

// settings is a JSON column of a user's own struct.
type settings struct {
	Theme string `json:"theme"`
}

func (s *settings) Scan(src any) error {
	b, ok := src.(string)
	if !ok {
		return errors.New("settings: not text")
	}
	return json.Unmarshal([]byte(b), s)
}

func (s settings) Value() (driver.Value, error) {
	b, err := json.Marshal(s)
	return string(b), err
}

func (s settings) MarshalJSON() ([]byte, error) {
	type plain settings
	return json.Marshal(plain(s))
}

func (s *settings) UnmarshalJSON(b []byte) error {
	type plain settings
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = settings(p)
	return nil
}

type sensor struct {
	Ref   *uuid.UUID      `json:"ref"`
	Temp  celsius         `json:"temp"`
	Prefs settings        `json:"prefs" drf:"format=json"`
	Raw   json.RawMessage `json:"raw" drf:"allow_null"`
	Note  sql.NullString  `json:"note"`
}

func TestCustomFieldsThroughTheirInterfaces(t *testing.T) {
	ser := serializers.MustNew[sensor]()
	var s sensor
	got, err := ser.Data(&s, nil)
	if want := `{"ref":null,"temp":0,"prefs":{"theme":""},"raw":null,"note":null}`; err != nil || string(got) != want {
		t.Errorf("zero = %s, %v; want %s", got, err, want)
	}
	body := `{"ref":"6BA7B810-9DAD-11D1-80B4-00C04FD430C8","temp":215,"prefs":{"theme":"dark"},"raw":{"x":[1]},"note":"n"}`
	if err := ser.Validate(decode(t, body), &s, false, nil); err != nil {
		t.Fatal(err)
	}
	got, err = ser.Data(&s, nil)
	if want := `{"ref":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","temp":215,"prefs":{"theme":"dark"},"raw":{"x":[1]},"note":"n"}`; err != nil || string(got) != want {
		t.Errorf("set = %s, %v; want %s", got, err, want)
	}
	// Nulls where allowed: the pointer, the RawMessage (allow_null), the
	// NullString; the others refuse null, or a value their type refuses.
	if err := ser.Validate(decode(t, `{"ref":null,"raw":null,"note":null}`), &s, true, nil); err != nil {
		t.Fatal(err)
	}
	if s.Ref != nil || s.Raw == nil || string(s.Raw) != "null" || s.Note.Valid {
		t.Errorf("nulls = %+v", s)
	}
	err = ser.Validate(decode(t, `{"temp":"warm","prefs":[1],"ref":-7}`), &s, true, nil)
	var apiErr *exceptions.APIException
	if !errors.As(err, &apiErr) {
		t.Fatalf("bad values: %v", err)
	}
	msgs, _ := json.Marshal(apiErr.Detail)
	if want := `{"ref":["Must be a valid UUID."],"temp":["Invalid value."],"prefs":["Value must be valid JSON."]}`; string(msgs) != want {
		t.Errorf("bad values = %s, want %s", msgs, want)
	}
	if err := ser.Validate(decode(t, `{"temp":null}`), &s, true, nil); err == nil || !strings.Contains(err.Error(), "null") {
		t.Errorf("null for a type that does not allow it: %v", err)
	}
	// DRF's UUIDField reads an integer (and a bool, an int in Python).
	if err := ser.Validate(decode(t, `{"ref":12}`), &s, true, nil); err != nil || s.Ref == nil || s.Ref.String() != "00000000-0000-0000-0000-00000000000c" {
		t.Errorf("ref 12 = %v, %v", s.Ref, err)
	}
	// OPTIONS types as DRF's SimpleMetadata gives a UUIDField ("string"),
	// a JSONField and a ModelField ("field").
	if got := string(ser.FieldInfo()); !strings.Contains(got, `"ref":{"type":"string"`) || !strings.Contains(got, `"temp":{"type":"field"`) ||
		!strings.Contains(got, `"prefs":{"type":"field"`) || !strings.Contains(got, `"raw":{"type":"field"`) || !strings.Contains(got, `"note":{"type":"string"`) {
		t.Errorf("OPTIONS = %s", got)
	}
}

// halfContract implements driver.Valuer but its pointer is no Scanner.
type halfContract struct{ n int64 }

func (h halfContract) Value() (driver.Value, error) { return h.n, nil }

func TestHalfTheContractIsRefused(t *testing.T) {
	type model struct {
		H halfContract `json:"h"`
	}
	if _, err := serializers.New[model](); err == nil || !strings.Contains(err.Error(), "field H: type serializers_test.halfContract implements driver.Valuer but *serializers_test.halfContract does not implement sql.Scanner") {
		t.Errorf("New = %v", err)
	}
}

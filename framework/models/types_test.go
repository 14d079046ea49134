package models

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/go-drf/drf/internal/structs"
)

func TestDateAsDjangoAndDRF(t *testing.T) {
	d, err := ParseDate("2024-1-3")
	if err != nil || d != (Date{2024, time.January, 3}) {
		t.Fatalf("ParseDate = %v, %v", d, err)
	}
	js, _ := json.Marshal(d)
	v, _ := d.Value()
	if string(js) != `"2024-01-03"` || v != driver.Value("2024-01-03") || d.String() != "2024-01-03" {
		t.Errorf("JSON %s, Value %v, String %s", js, v, d)
	}
	if DateOf(time.Date(2024, 1, 3, 23, 0, 0, 0, time.UTC)) != d || !d.Time(time.UTC).Equal(time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)) {
		t.Error("DateOf and Time do not agree")
	}
	for _, src := range []any{"2024-01-03", []byte("2024-01-03"), time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)} {
		var got Date
		if err := got.Scan(src); err != nil || got != d {
			t.Errorf("Scan(%#v) = %v, %v", src, got, err)
		}
	}
	// DRF's DateField refuses a datetime's text, a number and a date that
	// does not exist.
	for _, js := range []string{`"2024-01-31T10:00:00"`, `5`, `""`, `"2024-02-30"`, `null`} {
		var got Date
		if err := json.Unmarshal([]byte(js), &got); !errors.Is(err, structs.ErrInvalidValue) {
			t.Errorf("Unmarshal(%s) error = %v", js, err)
		}
	}
	if d.Compare(Date{2024, 1, 4}) != -1 || (Date{}).IsZero() != true || d.IsZero() {
		t.Error("Compare or IsZero")
	}
}

func TestTimeOfDayAsDjangoAndDRF(t *testing.T) {
	for in, want := range map[string]string{
		"13:45":            "13:45:00",
		"13:45:00.12":      "13:45:00.120000",
		"1:2:3":            "01:02:03",
		"13:45:00+01:00":   "13:45:00",
		"13:45:00.1234567": "13:45:00.123456",
	} {
		tod, err := ParseTimeOfDay(in)
		js, _ := json.Marshal(tod)
		if err != nil || string(js) != `"`+want+`"` {
			t.Errorf("ParseTimeOfDay(%q) renders %s, %v; want %q", in, js, err, want)
		}
		if v, _ := tod.Value(); v != driver.Value(want) {
			t.Errorf("Value = %v, want %q", v, want)
		}
	}
	var tod TimeOfDay
	if err := json.Unmarshal([]byte(`"25:00"`), &tod); !errors.Is(err, structs.ErrInvalidValue) {
		t.Errorf("25:00: %v", err)
	}
	// PostgreSQL's time text.
	if err := tod.Scan("13:45:00.500000"); err != nil || tod != (TimeOfDay{13, 45, 0, 500000}) {
		t.Errorf("Scan = %v, %v", tod, err)
	}
	at := tod.On(Date{2024, 1, 3}, time.UTC)
	if !at.Equal(time.Date(2024, 1, 3, 13, 45, 0, 500000000, time.UTC)) || TimeOfDayOf(at) != tod {
		t.Errorf("On = %v", at)
	}
	if tod.Compare(TimeOfDay{Hour: 14}) != -1 {
		t.Error("Compare")
	}
}

type calendarEntry struct {
	ID    int64         `db:"id" json:"id"`
	Day   Date          `db:"day" json:"day"`
	At    *TimeOfDay    `db:"at" json:"at"`
	Takes time.Duration `db:"takes" json:"takes"`
	Data  []byte        `db:"data" json:"data"`
}

func TestTemporalFieldsAreDjangoFields(t *testing.T) {
	d, err := Of[calendarEntry]()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]Kind{"day": DateField, "at": TimeField, "takes": DurationField, "data": BinaryField} {
		if f := d.Field(name); f == nil || f.Kind != want {
			t.Errorf("field %s: %+v, want %s", name, f, want)
		}
	}
}

package serializers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/formats"
)

// settingsItem holds the fields of testdata/drf_settings.py: its date,
// time, datetime and decimal fields with no options of their own, and
// with their own, which win over the settings.
type settingsItem struct {
	DateTime      time.Time        `json:"datetime"`
	DateTimeOwn   time.Time        `json:"datetime_own" drf:"format=%Y-%m-%d %H:%M,input_formats=%Y-%m-%d %H:%M"`
	DateTimeParis time.Time        `json:"datetime_paris" drf:"default_timezone=Europe/Paris"`
	DateTimeISO   time.Time        `json:"datetime_iso" drf:"format=iso-8601"`
	Date          models.Date      `json:"date"`
	DateOwn       models.Date      `json:"date_own" drf:"format=iso-8601,input_formats=iso-8601"`
	DateNone      models.Date      `json:"date_none" drf:"format=None,input_formats=%Y%m%d"`
	Time          models.TimeOfDay `json:"time"`
	TimeOwn       models.TimeOfDay `json:"time_own" drf:"format=%H.%M.%S.%f,input_formats=%H.%M"`
	Decimal       decimal.Decimal  `json:"decimal" drf:"max_digits=5,decimal_places=2"`
	DecimalOwn    decimal.Decimal  `json:"decimal_own" drf:"max_digits=5,decimal_places=2,coerce_to_string=true"`
}

// settingsCases are drf_settings.py's CASES.
var settingsCases = map[string]framework.Formats{
	"default": {},
	"formats": {
		DateTimeFormat: "%d/%m/%Y %H:%M", DateTimeInputFormats: []string{"%d/%m/%Y %H:%M", "iso-8601"},
		DateFormat: "%d %b %Y", DateInputFormats: []string{"%d %b %Y"},
		TimeFormat: "%I:%M%p", TimeInputFormats: []string{"%I:%M%p", "iso-8601"},
		DisableCoerceDecimalToString: true,
	},
	"none": {DateTimeFormat: formats.None, DateFormat: formats.None, TimeFormat: formats.None},
	"iso": {DateTimeFormat: "ISO-8601", DateTimeInputFormats: []string{"iso-8601", "%Y"},
		DateInputFormats: []string{"iso-8601", "%d/%m/%Y"}, TimeInputFormats: []string{"%H.%M", "iso-8601"}},
	"paris":         {TimeZone: "Europe/Paris"},
	"paris_formats": {DateTimeFormat: "%Y-%m-%d %H:%M %z", TimeZone: "Europe/Paris"},
	"naive":         {DisableUseTZ: true},
	"naive_formats": {DateTimeFormat: "%Y-%m-%d %H:%M:%S.%f%z", DateTimeInputFormats: []string{"%Y-%m-%d %H:%M%z"}, DisableUseTZ: true},
}

// settingsDiffer reports the inputs of drf_settings.py the framework
// answers otherwise, with why; a listed input that answers as DRF fails
// the test. Django 4.0's parse_time tries Python's time.fromisoformat
// first ("13.45" is 13:00:00.45), then its pattern up to the end of the
// text ("1:45pm" is refused); the framework reads a time's ISO 8601 as
// Django 3.2's parse_time at both levels.
func settingsDiffer(level, name, field, input string) (string, bool) {
	if level != "drf318" || field != "time" || input != `"1:45pm"` && input != `"01:45PM"` && input != `"13.45"` {
		return "", false
	}
	if name == "iso" && input == `"13.45"` || name == "formats" && input != `"13.45"` {
		// Their TIME_INPUT_FORMATS read it first (%H.%M, %I:%M%p).
		return "", false
	}
	return "a TimeField's ISO 8601 is Django 3.2's parse_time", true
}

// formatsContext is a serializer context of a request of a view whose
// Settings.Formats are f, at a level.
func formatsContext(t *testing.T, f framework.Formats, level framework.Compatibility) *serializers.Context {
	t.Helper()
	c, err := formats.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	hr := httptest.NewRequest(http.MethodGet, "/", nil)
	return &serializers.Context{Request: request.New(hr, request.Config{Compatibility: level, Formats: c})}
}

// TestSettingsFormatsAsDRF: Settings.Formats are DRF's DATETIME_FORMAT,
// DATETIME_INPUT_FORMATS, DATE_FORMAT, DATE_INPUT_FORMATS, TIME_FORMAT,
// TIME_INPUT_FORMATS and COERCE_DECIMAL_TO_STRING and Django's USE_TZ and
// TIME_ZONE, as DRF 3.14 and 3.18 answer drf_settings.py: strftime
// outputs and strptime inputs with DRF's messages naming them, None
// writing the value as it is, a naive input made aware in TIME_ZONE and
// outputs written in it, naive datetimes without USE_TZ, decimals as
// numbers; a field's own format, input_formats, default_timezone and
// coerce_to_string win over them.
func TestSettingsFormatsAsDRF(t *testing.T) {
	s := serializers.MustNew[settingsItem]()
	pick := func(t *testing.T, js []byte, name string) string {
		t.Helper()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return string(m[name])
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf struct {
				Versions map[string]string
				Cases    map[string]struct {
					Inputs  [][3]json.RawMessage
					Outputs [][3]json.RawMessage
				}
			}
			drfsuite.RunDRF(t, compatibility, "testdata/drf_settings.py", nil, &drf)
			if len(drf.Cases) != len(settingsCases) {
				t.Fatalf("%d cases, want %d", len(drf.Cases), len(settingsCases))
			}
			items := 0
			for name, answers := range drf.Cases {
				f, ok := settingsCases[name]
				if !ok {
					t.Fatalf("no case %s", name)
				}
				c := formatsContext(t, f, compatibility)
				for _, in := range answers.Inputs {
					var field string
					_ = json.Unmarshal(in[0], &field)
					var data map[string]any
					d := json.NewDecoder(strings.NewReader(`{"` + field + `":` + string(in[1]) + `}`))
					d.UseNumber()
					if err := d.Decode(&data); err != nil {
						t.Fatal(err)
					}
					var obj settingsItem
					var got string
					if err := s.Validate(data, &obj, true, c); err != nil {
						got = `{"errors":` + pick(t, []byte(strings.TrimPrefix(errorBody(err), "400 ")), field) + `}`
					} else {
						out, err := s.Data(&obj, c)
						if err != nil {
							t.Fatal(err)
						}
						got = `{"validated":` + pick(t, out, field) + `}`
					}
					why, differs := settingsDiffer(level, name, field, string(in[1]))
					switch same := sameJSON(t, []byte(got), in[2]); {
					case differs && same:
						t.Errorf("%s: %s %s answers as DRF %s, but it is listed as differing (%s)", name, field, in[1], drf.Versions["rest_framework"], why)
					case !differs && !same:
						t.Errorf("%s: %s %s (DRF %s): %s, want %s", name, field, in[1], drf.Versions["rest_framework"], got, in[2])
					}
					items++
				}
				for _, o := range answers.Outputs {
					var field, stored string
					_ = json.Unmarshal(o[0], &field)
					_ = json.Unmarshal(o[1], &stored)
					if strings.HasPrefix(field, "datetime") {
						stored += "Z"
					}
					var obj settingsItem
					if err := json.Unmarshal([]byte(`{"`+field+`":"`+stored+`"}`), &obj); err != nil {
						t.Fatal(err)
					}
					out, err := s.Data(&obj, c)
					if err != nil {
						t.Fatal(err)
					}
					if got := pick(t, out, field); !sameJSON(t, []byte(got), o[2]) {
						t.Errorf("%s: %s stored %s (DRF %s): %s, want %s", name, field, stored, drf.Versions["rest_framework"], got, o[2])
					}
					items++
				}
			}
			t.Logf("%d items as DRF %s", items, drf.Versions["rest_framework"])
		})
	}
}

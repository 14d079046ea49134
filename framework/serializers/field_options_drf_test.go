package serializers_test

import (
	"bytes"
	"encoding/json"
	"github.com/go-drf/drf/internal/drfsuite"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/formats"
)

// The one-field serializers of testdata/drf_field_options.py's FIELDS,
// each field "f".
type (
	optSlugUnicode struct {
		F string `json:"f" drf:"slug,allow_unicode"`
	}
	optIPv4 struct {
		F string `json:"f" drf:"protocol=IPv4"`
	}
	optIPv6 struct {
		F string `json:"f" drf:"ip,protocol=IPv6"`
	}
	optUUIDHex struct {
		F uuid.UUID `json:"f" drf:"format=hex"`
	}
	optUUIDInt struct {
		F uuid.UUID `json:"f" drf:"format=int"`
	}
	optUUIDURN struct {
		F uuid.UUID `json:"f" drf:"format=urn"`
	}
	optUUIDVerbose struct {
		F uuid.UUID `json:"f" drf:"format=hex_verbose"`
	}
	optDurationDjango struct {
		F time.Duration `json:"f" drf:"format=django"`
	}
	optDurationISO struct {
		F time.Duration `json:"f" drf:"format=iso-8601"`
	}
	optDurationNone struct {
		F time.Duration `json:"f" drf:"format=None"`
	}
	optDurationMinMax struct {
		F time.Duration `json:"f" drf:"min_value=1 00:00:00,max_value=4 00:00:00"`
	}
	optBigIntString struct {
		F int64 `json:"f" drf:"coerce_to_string=true"`
	}
	optBigIntNumber struct {
		F int64 `json:"f" drf:"coerce_to_string=false"`
	}
	optJSONBinary struct {
		F json.RawMessage `json:"f" drf:"binary"`
	}
	optDefaultInt struct {
		F int64 `json:"f" drf:"default=123"`
	}
	optDefaultChar struct {
		F string `json:"f" drf:"default=happy"`
	}
	optDefaultNullBool struct {
		F *bool `json:"f" drf:"default=true"`
	}
)

// optionsSettings are drf_field_options.py's SETTINGS.
var optionsSettings = map[string]framework.Formats{
	"default":            {},
	"duration_iso":       {DurationFormat: "iso-8601"},
	"duration_iso_upper": {DurationFormat: "ISO-8601"},
	"duration_none":      {DurationFormat: formats.None},
	"bigint_string":      {CoerceBigIntToString: true},
}

// TestFieldOptionsAsDRF: the field options of issue 41 answer as
// drf_field_options.py's DRF does at each compatibility level: a slug's
// allow_unicode, an IP address's protocol, a UUID's format, a duration's
// format, bounds and DURATION_FORMAT, an int64's coerce_to_string and
// COERCE_BIGINT_TO_STRING, a JSON field's binary, the choices of an
// integer field, grouped choices (listed flat), and default=. DRF 3.14
// has no DurationField format, DURATION_FORMAT, BigIntegerField or
// COERCE_BIGINT_TO_STRING: those cases are DRF 3.18's alone.
func TestFieldOptionsAsDRF(t *testing.T) {
	grouped := []models.Choice{{Value: "poor", Label: "Poor quality"}, {Value: "medium", Label: "Medium quality"},
		{Value: "good", Label: "Good quality"}}
	mixed := []models.Choice{{Value: "poor", Label: "Poor quality"}, {Value: "medium", Label: "medium"},
		{Value: "good", Label: "Good quality"}}
	fields := map[string]edgeValidator{
		"slug":             edgeCase[drfSlug](t),
		"slug_unicode":     edgeCase[optSlugUnicode](t),
		"ipv4":             edgeCase[optIPv4](t),
		"ipv6":             edgeCase[optIPv6](t),
		"uuid_hex":         edgeCase[optUUIDHex](t),
		"uuid_int":         edgeCase[optUUIDInt](t),
		"uuid_urn":         edgeCase[optUUIDURN](t),
		"uuid_hex_verbose": edgeCase[optUUIDVerbose](t),
		"duration":         edgeCase[edgeDuration](t),
		"duration_django":  edgeCase[optDurationDjango](t),
		"duration_iso":     edgeCase[optDurationISO](t),
		"duration_none":    edgeCase[optDurationNone](t),
		"duration_minmax":  edgeCase[optDurationMinMax](t),
		"bigint":           edgeCase[edgeInt](t),
		"bigint_string":    edgeCase[optBigIntString](t),
		"bigint_number":    edgeCase[optBigIntNumber](t),
		"json_binary":      edgeCase[optJSONBinary](t),
		"int_choice": edgeCase[edgeInt](t, serializers.Choices("f", []models.Choice{
			{Value: "1", Label: "Poor quality"}, {Value: "2", Label: "Medium quality"}, {Value: "3", Label: "Good quality"}})),
		"grouped_choice":   edgeCase[edgeChar](t, serializers.Choices("f", grouped)),
		"mixed_choice":     edgeCase[edgeChar](t, serializers.Choices("f", mixed)),
		"default_int":      edgeCase[optDefaultInt](t),
		"default_char":     edgeCase[optDefaultChar](t),
		"default_nullbool": edgeCase[optDefaultNullBool](t),
	}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			var drf drfFieldEdges
			drfsuite.RunDRF(t, compatibility, "testdata/drf_field_options.py", nil, &drf)
			checked := 0
			for _, c := range drf.Cases {
				var name, setting, mode, input string
				for i, v := range []*string{&name, &setting, &mode, &input} {
					if err := json.Unmarshal(c[i], v); err != nil {
						t.Fatal(err)
					}
				}
				key := name + " " + setting + " " + mode + " " + input
				if bytes.Contains(c[4], []byte(`"unsupported"`)) {
					continue
				}
				var want bytes.Buffer
				if err := json.Compact(&want, c[4]); err != nil {
					t.Fatal(err)
				}
				data, ctx := optionsInput(t, mode, input, compatibility, optionsSettings[setting])
				got, err := fields[name](data, ctx)
				if err != nil {
					t.Errorf("%s: %v", key, err)
					continue
				}
				checked++
				if !sameJSON(t, []byte(got), want.Bytes()) {
					t.Errorf("%s (DRF %s):\n got %s\nwant %s", key, drf.Versions["rest_framework"], got, want.String())
				}
			}
			if checked == 0 {
				t.Fatal("no cases")
			}
		})
	}
}

// optionsInput reads input as edgeInput does, for a view of the format
// settings s.
func optionsInput(t *testing.T, mode, input string, level framework.Compatibility, s framework.Formats) (any, *serializers.Context) {
	t.Helper()
	compiled, err := formats.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(input))
	hr.Header.Set("Content-Type", "application/json")
	if mode == "form" {
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r := request.New(hr, request.Config{Parsers: []request.Parser{framework.JSONParser{}, framework.FormParser{}},
		Compatibility: level, Formats: compiled})
	data, err := r.Data()
	if err != nil {
		t.Fatal(err)
	}
	return data, &serializers.Context{Request: r}
}

// TestFieldOptionsRefused: an option of the wrong value or on the wrong
// field is refused at setup, in DRF's words where DRF has them (its
// DurationField's format, its UUIDField's, its IPAddressField's
// protocol), as is an unknown DURATION_FORMAT (DRF: a 500 on every
// response holding a duration).
func TestFieldOptionsRefused(t *testing.T) {
	type durationUnknown struct {
		F time.Duration `json:"f" drf:"format=unknown"`
	}
	type uuidUnknown struct {
		F uuid.UUID `json:"f" drf:"format=base64"`
	}
	type protocolUnknown struct {
		F string `json:"f" drf:"protocol=ipv5"`
	}
	type unicodeInt struct {
		F int `json:"f" drf:"allow_unicode"`
	}
	type unicodeEmail struct {
		F string `json:"f" drf:"email,allow_unicode"`
	}
	type coerceInt32 struct {
		F int32 `json:"f" drf:"coerce_to_string=true"`
	}
	type binaryString struct {
		F string `json:"f" drf:"binary"`
	}
	for _, c := range []struct {
		name string
		new  func() error
		want string
	}{
		{"duration format", func() error { _, err := serializers.New[durationUnknown](); return err },
			"Unknown duration format provided, got 'unknown' while expecting 'django', 'iso-8601' or `None`."},
		{"uuid format", func() error { _, err := serializers.New[uuidUnknown](); return err },
			"Invalid format for uuid representation. Must be one of 'hex_verbose', 'hex', 'int', 'urn'"},
		{"protocol", func() error { _, err := serializers.New[protocolUnknown](); return err },
			"The protocol 'ipv5' is unknown. Supported: ['both', 'ipv4', 'ipv6']"},
		{"allow_unicode on an int", func() error { _, err := serializers.New[unicodeInt](); return err }, "allow_unicode needs"},
		{"allow_unicode on an email", func() error { _, err := serializers.New[unicodeEmail](); return err }, "allow_unicode needs"},
		{"coerce_to_string on an int32", func() error { _, err := serializers.New[coerceInt32](); return err }, "coerce_to_string needs"},
		{"binary on a string", func() error { _, err := serializers.New[binaryString](); return err }, "binary needs"},
		{"DURATION_FORMAT", func() error { _, err := formats.Compile(framework.Formats{DurationFormat: "unknown"}); return err },
			"DURATION_FORMAT: Unknown duration format provided, got 'unknown' while expecting 'django', 'iso-8601' or `None`."},
	} {
		err := c.new()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

package serializers_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/reverse"
	"github.com/go-drf/drf/framework/serializers"
	qt "github.com/go-drf/drf/internal/querysettest"
)

var books = serializers.MustNew[qt.Book]()

func book3() *qt.Book {
	return &qt.Book{ID: 3, Title: "Book 003", Author: "Author 3", Rating: 2,
		Created: time.Date(2024, 1, 1, 3, 0, 0, 0, time.UTC), OwnerID: 1, Owner: "admin"}
}

func TestDataIsDRFsRepresentation(t *testing.T) {
	b := book3()
	got, err := books.Data(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":3,"title":"Book 003","author":"Author 3","rating":2,"created":"2024-01-01T03:00:00Z","owner":"admin"}`
	if string(got) != want {
		t.Errorf("data = %s\nwant %s", got, want)
	}
	b.Created = time.Date(2026, 11, 22, 20, 10, 15, 860507999, time.FixedZone("", 3600))
	b.Title = "quote \" back \\ nl \n tab \t ctl \x01 <&> é \u2028 bad \xff"
	got, _ = books.Data(b, nil)
	var std bytes.Buffer
	enc := json.NewEncoder(&std)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(b.Title)
	if !strings.Contains(string(got), `"created":"2026-11-22T19:10:15.860507Z"`) ||
		!strings.Contains(string(got), `"title":`+strings.TrimSpace(std.String())) {
		t.Errorf("data = %s", got)
	}
	many, err := books.Many([]*qt.Book{book3(), book3()}, nil)
	if err != nil || !strings.HasPrefix(string(many), `[{"id":3,`) || !json.Valid(many) || bytes.Count(many, []byte(`"id"`)) != 2 {
		t.Errorf("many = %s, %v", many, err)
	}
	if empty, _ := books.Many(nil, nil); string(empty) != "[]" {
		t.Errorf("no items = %s", empty)
	}
	if _, err := books.Many([]*qt.Book{nil}, nil); err == nil {
		t.Error("a nil item should fail")
	}
}

// TestIntegersOfEverySize: every integer field, nullable or not, is its
// decimal value, extremes included.
func TestIntegersOfEverySize(t *testing.T) {
	type ints struct {
		A int     `json:"a"`
		B int8    `json:"b"`
		C int16   `json:"c"`
		D int32   `json:"d"`
		E int64   `json:"e"`
		F *int64  `json:"f"`
		G *int    `json:"g"`
		H uint64  `json:"h"`
		I *uint32 `json:"i"`
	}
	s := serializers.MustNew[ints]()
	e, g, i := int64(-9223372036854775808), 0, uint32(4294967295)
	for _, c := range []struct {
		v    ints
		want string
	}{
		{ints{}, `{"a":0,"b":0,"c":0,"d":0,"e":0,"f":null,"g":null,"h":0,"i":null}`},
		{ints{A: -1, B: -128, C: 32767, D: -2147483648, E: 9223372036854775807, F: &e, G: &g, H: 18446744073709551615, I: &i},
			`{"a":-1,"b":-128,"c":32767,"d":-2147483648,"e":9223372036854775807,"f":-9223372036854775808,"g":0,"h":18446744073709551615,"i":4294967295}`},
	} {
		if got, err := s.Data(&c.v, nil); err != nil || string(got) != c.want {
			t.Errorf("Data = %s, %v\nwant %s", got, err, c.want)
		}
	}
}

func TestFieldsSubsetAndComputed(t *testing.T) {
	v1 := serializers.MustNew[qt.Book](serializers.Fields("title", "id"))
	got, _ := v1.Data(book3(), nil)
	if string(got) != `{"title":"Book 003","id":3}` {
		t.Errorf("v1 = %s", got)
	}
	stars := serializers.MustNew[qt.Book](serializers.Fields("id", "stars"),
		serializers.Computed("stars", func(b *qt.Book, _ *serializers.Context) (any, error) {
			return map[string]any{"n": b.Rating, "s": strings.Repeat("*", b.Rating) + "<&>"}, nil
		}))
	got, _ = stars.Data(book3(), nil)
	if string(got) != `{"id":3,"stars":{"n":2,"s":"**<&>"}}` {
		t.Errorf("computed = %s", got)
	}
	if v, err := stars.Value("stars", book3(), nil); err != nil || v.(map[string]any)["n"] != 2 {
		t.Errorf("value = %v, %v", v, err)
	}
	if v, err := v1.Value("id", book3(), nil); err != nil || v != float64(3) {
		t.Errorf("value = %v, %v", v, err)
	}
	if v1.HasField("rating") || !stars.HasField("stars") || fmt.Sprint(stars.FieldNames()) != "[id stars]" {
		t.Error("field names")
	}
}

func TestSetupErrors(t *testing.T) {
	type badTag struct {
		A int `json:"a" drf:"readonly"`
	}
	type badBound struct {
		A string `json:"a" drf:"max_value=3"`
	}
	type unsupported struct {
		A [][][]int `json:"a"`
	}
	type nullNotPointer struct {
		A int `json:"a" drf:"allow_null"`
	}
	type readRequired struct {
		A int `json:"a" drf:"read_only,required"`
	}
	for name, err := range map[string]error{
		"unknown option": second(serializers.New[badTag]()),
		"bound on text":  second(serializers.New[badBound]()),
		"unsupported":    second(serializers.New[unsupported]()),
		"null":           second(serializers.New[nullNotPointer]()),
		"read required":  second(serializers.New[readRequired]()),
		"unknown field":  second(serializers.New[qt.Book](serializers.Fields("id", "nope"))),
		"duplicate":      second(serializers.New[qt.Book](serializers.HyperlinkedIdentity{Name: "title", Route: "x"})),
		"no route":       second(serializers.New[qt.Book](serializers.HyperlinkedIdentity{Name: "url"})),
		"bad lookup":     second(serializers.New[qt.Book](serializers.HyperlinkedIdentity{Name: "url", Route: "x", LookupField: "nope"})),
		"wrong type": second(serializers.New[qt.Book](serializers.Computed("x", func(*struct{}, *serializers.Context) (any, error) {
			return nil, nil
		}))),
	} {
		if err == nil {
			t.Errorf("%s: no setup error", name)
		}
	}
	type skipped struct {
		A []int `json:"-"`
		B int   `json:"b"`
	}
	if _, err := serializers.New[skipped](); err != nil {
		t.Errorf("a json:\"-\" field of any type is fine: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

func decode(t *testing.T, body string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func errorBody(err error) string {
	var api *exceptions.APIException
	if !errors.As(err, &api) {
		return fmt.Sprintf("not an API error: %v", err)
	}
	b, _ := json.Marshal(api.Detail)
	return fmt.Sprintf("%d %s", api.Status, b)
}

// TestValidateAsTheReference: the answers of the DRF reference to POST
// and PATCH /books/ with these bodies.
func TestValidateAsTheReference(t *testing.T) {
	long := strings.Repeat("x", 201)
	for _, c := range []struct {
		body    string
		partial bool
		want    string // error body, or the item's title/author/rating
	}{
		{`{}`, false, `400 {"title":["This field is required."],"author":["This field is required."],"rating":["This field is required."]}`},
		{`{}`, true, `ok 3 "Book 003" "Author 3" 2`},
		{`[]`, false, `400 {"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{`"x"`, false, `400 {"non_field_errors":["Invalid data. Expected a dictionary, but got str."]}`},
		{`5`, false, `400 {"non_field_errors":["Invalid data. Expected a dictionary, but got int."]}`},
		{`true`, true, `400 {"non_field_errors":["Invalid data. Expected a dictionary, but got bool."]}`},
		{`null`, false, `400 {"non_field_errors":["No data provided"]}`},
		{`{"title":"","author":"  ","rating":"abc"}`, false, `400 {"title":["This field may not be blank."],"author":["This field may not be blank."],"rating":["A valid integer is required."]}`},
		{`{"title":5,"author":["a"],"rating":9}`, false, `400 {"author":["Not a valid string."],"rating":["Ensure this value is less than or equal to 5."]}`},
		{`{"title":"t","author":{"a":1},"rating":0}`, false, `400 {"author":["Not a valid string."],"rating":["Ensure this value is greater than or equal to 1."]}`},
		{`{"title":"` + long + `","author":null,"rating":3.5}`, false, `400 {"title":["Ensure this field has no more than 200 characters."],"author":["This field may not be null."],"rating":["A valid integer is required."]}`},
		{`{"title":"  t  ","author":true,"rating":3.0}`, false, `400 {"author":["Not a valid string."]}`},
		{`{"title":"t","author":"a","rating":true}`, false, `400 {"rating":["A valid integer is required."]}`},
		{`{"title":"t","author":"a","rating":""}`, false, `400 {"rating":["A valid integer is required."]}`},
		{`{"title":"t","author":"a","rating":12345678901234567890123}`, false, `400 {"rating":["Ensure this value is less than or equal to 5."]}`},
		{`{"title":"t","author":"a","rating":1e20}`, false, `400 {"rating":["A valid integer is required."]}`},
		{`{"title":"t","author":"a","rating":"` + long + long + long + long + long + `"}`, false, `400 {"rating":["String value too large."]}`},
		{`{"title":"a\u0000b","author":"a","rating":1}`, false, `400 {"title":["Null characters are not allowed."]}`},
		{`{"rating":9}`, true, `400 {"rating":["Ensure this value is less than or equal to 5."]}`},
		{`{"title":"  t  ","author":5.50,"rating":" 4 ","created":"2020-01-01T00:00:00Z","owner":"bob","id":777}`, false, `ok 3 "t" "5.5" 4`},
		{`{"title":12345678901234567890,"author":1e2,"rating":"4.0"}`, false, `ok 3 "12345678901234567890" "100.0" 4`},
		{`{"title":"t","author":"a","rating":"+1_0"}`, false, `400 {"rating":["Ensure this value is less than or equal to 5."]}`},
		{`{"title":"t","author":"a","rating":"1__0"}`, false, `400 {"rating":["A valid integer is required."]}`},
		{`{"title":"t","author":"a","rating":"5. "}`, false, `ok 3 "t" "a" 5`},
		{`{"title":"t","author":"a","rating":"\u0664"}`, false, `ok 3 "t" "a" 4`}, // Python's int() reads any script's digits
		{`{"rating":1,"title":"patched"}`, true, `ok 3 "patched" "Author 3" 1`},
	} {
		obj := book3()
		err := books.Validate(decode(t, c.body), obj, c.partial, nil)
		got := fmt.Sprintf("ok %d %q %q %d", obj.ID, obj.Title, obj.Author, obj.Rating)
		if err != nil {
			got = errorBody(err)
			if *obj != *book3() {
				t.Errorf("%s: a failed validation changed the item: %+v", c.body, obj)
			}
		}
		if got != c.want {
			t.Errorf("%s partial=%v\n got %s\nwant %s", c.body, c.partial, got, c.want)
		}
	}
}

type gadget struct {
	ID      int64      `db:"id" json:"id" drf:"read_only"`
	Name    string     `json:"name" drf:"required,min_length=2,no_trim"`
	Note    *string    `json:"note" drf:"allow_blank"`
	Active  bool       `json:"active"`
	Weight  float64    `json:"weight" drf:"min_value=0.5,max_value=10"`
	Small   int8       `json:"small"`
	Count   uint       `json:"count"`
	Seen    *time.Time `json:"seen"`
	Secret  string     `json:"secret" drf:"write_only"`
	Comment string     `json:"comment" drf:"allow_blank"`
}

func TestValidateKinds(t *testing.T) {
	gadgets := serializers.MustNew[gadget]()
	for _, c := range []struct{ body, want string }{
		{`{"name":" a"}`, `ok {"id":0,"name":" a","note":null,"active":false,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{`{"name":"a "}`, `ok {"id":0,"name":"a ","note":null,"active":false,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{`{"name":"a"}`, `400 {"name":["Ensure this field has at least 2 characters."]}`},
		{`{"name":"ab","note":"","active":"yes","weight":"2.5","small":127,"count":"7","seen":"2024-01-05 01:00+01:00","secret":"s","comment":""}`,
			`ok {"id":0,"name":"ab","note":"","active":true,"weight":2.5,"small":127,"count":7,"seen":"2024-01-05T00:00:00Z","comment":""}`},
		{`{"name":"ab","note":null,"active":0,"seen":null,"comment":""}`, `ok {"id":0,"name":"ab","note":null,"active":false,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{`{"name":"ab","active":"maybe","weight":"heavy","small":128,"count":-1,"seen":"yesterday"}`,
			`400 {"active":["Must be a valid boolean."],"weight":["A valid number is required."],"small":["Ensure this value is less than or equal to 127."],"count":["Ensure this value is greater than or equal to 0."],"seen":["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."]}`},
		{`{"name":"ab","active":2,"weight":11,"seen":5}`,
			`400 {"active":["Must be a valid boolean."],"weight":["Ensure this value is less than or equal to 10."],"seen":["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."]}`},
		{`{"name":"ab","weight":0.25,"small":-129}`, `400 {"weight":["Ensure this value is greater than or equal to 0.5."],"small":["Ensure this value is greater than or equal to -128."]}`},
		{`{"name":"ab","active":null}`, `400 {"active":["This field may not be null."]}`},
	} {
		var g gadget
		err := gadgets.Validate(decode(t, c.body), &g, false, nil)
		got := errorBody(err)
		if err == nil {
			data, _ := gadgets.Data(&g, nil)
			got = "ok " + string(data)
		}
		if got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.body, got, c.want)
		}
	}
}

// TestFormInput: DRF's HTML-form rules, through a real form request.
func TestFormInput(t *testing.T) {
	gadgets := serializers.MustNew[gadget]()
	for _, c := range []struct {
		form    string
		partial bool
		want    string
	}{
		{"name=ab&active=on", false, `ok {"id":0,"name":"ab","note":null,"active":true,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{"name=ab&note=&weight=&comment=", false, `ok {"id":0,"name":"ab","note":"","active":false,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{"name=ab&seen=", false, `ok {"id":0,"name":"ab","note":null,"active":false,"weight":0.0,"small":0,"count":0,"seen":null,"comment":""}`},
		{"name=", false, `400 {"name":["This field may not be blank."]}`},
		{"weight=3", true, `ok {"id":0,"name":"","note":null,"active":false,"weight":3.0,"small":0,"count":0,"seen":null,"comment":""}`},
	} {
		hr := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.form))
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r := request.New(hr, request.Config{Parsers: []request.Parser{framework.FormParser{}}})
		data, err := r.Data()
		if err != nil {
			t.Fatal(err)
		}
		var g gadget
		ctx := &serializers.Context{Request: r}
		err = gadgets.Validate(data, &g, c.partial, ctx)
		got := errorBody(err)
		if err == nil {
			out, _ := gadgets.Data(&g, ctx)
			got = "ok " + string(out)
		}
		if got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.form, got, c.want)
		}
	}
}

func TestValidateObject(t *testing.T) {
	ser := serializers.MustNew[qt.Book](serializers.ValidateObject(func(b *qt.Book, _ *serializers.Context) error {
		if b.Title == b.Author {
			var errs exceptions.ValidationErrors
			errs.Add(exceptions.NonFieldErrors, "Title and author must differ.")
			return exceptions.ValidationError(errs)
		}
		return nil
	}))
	obj := book3()
	err := ser.Validate(map[string]any{"title": "same", "author": "same"}, obj, true, nil)
	if got := errorBody(err); got != `400 {"non_field_errors":["Title and author must differ."]}` || obj.Title != "Book 003" {
		t.Errorf("object validation = %s, title %q", got, obj.Title)
	}
}

// TestHyperlinkedIdentity reverses the item's route for the request, so
// the URL has the request's host.
func TestHyperlinkedIdentity(t *testing.T) {
	v2 := serializers.MustNew[qt.Book](serializers.Fields("id", "title", "url"),
		serializers.HyperlinkedIdentity{Name: "url", Route: "book-detail"})
	routes := reverse.New(reverse.Config{})
	mux := chi.NewRouter()
	routes.Handle(mux, "/books/{pk}/", http.HandlerFunc(func(w http.ResponseWriter, hr *http.Request) {
		out, err := v2.Data(book3(), &serializers.Context{Request: request.New(hr, request.Config{})})
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		_, _ = w.Write(out)
	}), reverse.Named("book-detail"))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/books/9/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"id":3,"title":"Book 003","url":"` + srv.URL + `/books/3/"}`; string(body) != want {
		t.Errorf("body = %s\nwant %s", body, want)
	}
	if _, err := v2.Data(book3(), nil); err == nil {
		t.Error("a hyperlinked field without a request should fail")
	}
}

func TestFieldInfo(t *testing.T) {
	type thing struct {
		ID     int64    `json:"id" drf:"read_only"`
		Name   string   `json:"name" drf:"required,min_length=2,max_length=9,label=Full name"`
		Ratio  *float64 `json:"ratio" drf:"min_value=0.5,max_value=1e20"`
		On     bool     `json:"is_on"`
		Secret string   `json:"secret" drf:"write_only"`
		Who    string   `json:"who" drf:"read_only,type=field"`
	}
	ser := serializers.MustNew[thing](
		serializers.Computed("extra", func(*thing, *serializers.Context) (any, error) { return 1, nil }),
		serializers.HyperlinkedIdentity{Name: "url", Route: "thing-detail"})
	want := `{"id":{"type":"integer","required":false,"read_only":true,"label":"ID"},` +
		`"name":{"type":"string","required":true,"read_only":false,"label":"Full name","min_length":2,"max_length":9},` +
		`"ratio":{"type":"float","required":false,"read_only":false,"label":"Ratio","min_value":0.5,"max_value":1e+20},` +
		`"is_on":{"type":"boolean","required":false,"read_only":false,"label":"Is on"},` +
		`"secret":{"type":"string","required":false,"read_only":false,"label":"Secret"},` +
		`"who":{"type":"field","required":false,"read_only":true,"label":"Who"},` +
		`"extra":{"type":"field","required":false,"read_only":true,"label":"Extra"},` +
		`"url":{"type":"field","required":false,"read_only":true,"label":"Url"}}`
	if got := string(ser.FieldInfo()); got != want || !json.Valid(ser.FieldInfo()) {
		t.Errorf("info = %s\nwant %s", got, want)
	}
}

// TestTimesAsDRFWritesThem: a datetime is ISO 8601 in UTC with "Z" and
// microseconds only when not zero, for any year and zone.
func TestTimesAsDRFWritesThem(t *testing.T) {
	type stamped struct {
		At time.Time `db:"at" json:"at"`
	}
	ser := serializers.MustNew[stamped]()
	east := time.FixedZone("", 5*3600+30*60)
	times := []time.Time{
		time.Date(2024, 1, 1, 3, 0, 0, 0, time.UTC),
		time.Date(2024, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2024, 3, 1, 2, 15, 0, 123456000, east),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 1000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 15, 12, 0, 0, 0, time.UTC),
	}
	for i := 0; i < 200; i++ {
		times = append(times, time.Unix(int64(i)*7919*86413, int64(i)*1237*1000).In(east))
	}
	for _, at := range times {
		u := at.UTC()
		want := u.Format("2006-01-02T15:04:05")
		if us := u.Nanosecond() / 1000; us != 0 {
			want += fmt.Sprintf(".%06d", us)
		}
		want = `{"at":"` + want + `Z"}`
		got, err := ser.Data(&stamped{At: at}, nil)
		if err != nil || string(got) != want {
			t.Errorf("%v: %s %v, want %s", at, got, err, want)
		}
	}
}

// TestDescribe checks the description schemas and forms are built from.
func TestDescribe(t *testing.T) {
	type thing struct {
		ID     int64    `json:"id" drf:"read_only"`
		Name   string   `json:"name" drf:"required,min_length=2,max_length=9,label=Full name,allow_blank"`
		Ratio  *float64 `json:"ratio" drf:"allow_null,min_value=0.5,max_value=1e20"`
		Secret string   `json:"secret" drf:"write_only"`
	}
	ser := serializers.MustNew[thing](serializers.HyperlinkedIdentity{Name: "url", Route: "thing-detail"})
	got := fmt.Sprintf("%+v", ser.Description().Fields)
	want := "[{Name:id Label:ID HelpText: Pattern: Type:integer Format: Link:false ReadOnly:true WriteOnly:false Required:false AllowBlank:false AllowNull:false MaxLength:-1 MinLength:-1 MaxValue: MinValue: DecimalPlaces:0 MaxWholeDigits:0 Choices:[] TextArea:false Child:<nil> Related:false Many:false IntegerKey:false Initial:} " +
		"{Name:name Label:Full name HelpText: Pattern: Type:string Format: Link:false ReadOnly:false WriteOnly:false Required:true AllowBlank:true AllowNull:false MaxLength:9 MinLength:2 MaxValue: MinValue: DecimalPlaces:0 MaxWholeDigits:0 Choices:[] TextArea:false Child:<nil> Related:false Many:false IntegerKey:false Initial:} " +
		"{Name:ratio Label:Ratio HelpText: Pattern: Type:float Format: Link:false ReadOnly:false WriteOnly:false Required:false AllowBlank:false AllowNull:true MaxLength:-1 MinLength:-1 MaxValue:1e+20 MinValue:0.5 DecimalPlaces:0 MaxWholeDigits:0 Choices:[] TextArea:false Child:<nil> Related:false Many:false IntegerKey:false Initial:} " +
		"{Name:secret Label:Secret HelpText: Pattern: Type:string Format: Link:false ReadOnly:false WriteOnly:true Required:false AllowBlank:false AllowNull:false MaxLength:-1 MinLength:-1 MaxValue: MinValue: DecimalPlaces:0 MaxWholeDigits:0 Choices:[] TextArea:false Child:<nil> Related:false Many:false IntegerKey:false Initial:} " +
		"{Name:url Label:Url HelpText: Pattern: Type:field Format: Link:true ReadOnly:true WriteOnly:false Required:false AllowBlank:false AllowNull:false MaxLength:-1 MinLength:-1 MaxValue: MinValue: DecimalPlaces:0 MaxWholeDigits:0 Choices:[] TextArea:false Child:<nil> Related:false Many:false IntegerKey:false Initial:}]"
	if got != want {
		t.Errorf("Description\n got %s\nwant %s", got, want)
	}
	if d := ser.Description(); d.Model != "thing" || d != ser.Description() {
		t.Errorf("Description %+v: want model thing, the same value each time", d)
	}
}

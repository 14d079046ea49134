package framework_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
)

type formatsItem struct {
	At    time.Time       `json:"at"`
	Price decimal.Decimal `json:"price" drf:"max_digits=5,decimal_places=2"`
}

// formatsView validates the body into a formatsItem and answers it.
func formatsView(name string, f *framework.Formats) framework.View {
	s := serializers.MustNew[formatsItem]()
	return framework.View{Name: name, Formats: f, Post: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		c := &serializers.Context{Request: r}
		var item formatsItem
		if err := s.ValidateNew(data, &item, c); err != nil {
			return nil, err
		}
		out, err := s.Data(&item, c)
		if err != nil {
			return nil, err
		}
		return framework.OK(out), nil
	}}
}

func postFormats(t *testing.T, h http.Handler, body string) string {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(w, r)
	return fmt.Sprintf("%d %s", w.Code, w.Body)
}

// TestSettingsFormats: Settings.Formats reach the serializers of every
// view (DATETIME_FORMAT, TIME_ZONE, COERCE_DECIMAL_TO_STRING); a view's
// Formats replace them; a format or zone registration cannot read is
// refused there, naming the view and the setting.
func TestSettingsFormats(t *testing.T) {
	settings := framework.Settings{Formats: framework.Formats{
		DateTimeFormat: "%d/%m/%Y %H:%M %z", DateTimeInputFormats: []string{"%d/%m/%Y %H:%M"},
		TimeZone: "Europe/Paris", DisableCoerceDecimalToString: true,
	}}
	for _, c := range []struct {
		view       framework.View
		body, want string
	}{
		{formatsView("global", nil), `{"at": "01/07/2001 13:00", "price": "1.5"}`, `200 {"at":"01/07/2001 13:00 +0200","price":1.5}`},
		{formatsView("global", nil), `{"at": "2001-07-01T13:00", "price": "1.5"}`,
			`400 {"at":["Datetime has wrong format. Use one of these formats instead: DD/MM/YYYY hh:mm."]}`},
		{formatsView("own", &framework.Formats{}), `{"at": "2001-07-01T13:00", "price": "1.5"}`, `200 {"at":"2001-07-01T13:00:00Z","price":"1.50"}`},
		{formatsView("own", &framework.Formats{DisableUseTZ: true}), `{"at": "2001-07-01T13:00+02:00", "price": "1.5"}`,
			`200 {"at":"2001-07-01T11:00:00","price":"1.50"}`},
	} {
		if got := postFormats(t, apitest.View(c.view, settings), c.body); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.view.Name, c.body, got, c.want)
		}
	}
	// A serializer outside a view reads and writes DRF's defaults.
	out, err := serializers.MustNew[formatsItem]().Data(&formatsItem{At: time.Date(2001, 7, 1, 13, 0, 0, 0, time.UTC), Price: decimal.New(15, -1)}, nil)
	if err != nil || string(out) != `{"at":"2001-07-01T13:00:00Z","price":"1.50"}` {
		t.Errorf("outside a view: %s %v", out, err)
	}
	for _, c := range []struct {
		settings framework.Formats
		view     *framework.Formats
		want     string
	}{
		{framework.Formats{DateFormat: "%Y %j"}, nil, `framework: the view "bad": DATE_FORMAT: format "%Y %j": %j is not one of`},
		{framework.Formats{}, &framework.Formats{TimeInputFormats: []string{"%H", "%q"}}, `framework: the view "bad": TIME_INPUT_FORMATS: format "%q"`},
		{framework.Formats{TimeZone: "Mars/Olympus"}, nil, `framework: the view "bad": TIME_ZONE "Mars/Olympus"`},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), c.want) {
					t.Errorf("%+v: %v, want %s", c.settings, r, c.want)
				}
			}()
			apitest.View(formatsView("bad", c.view), framework.Settings{Formats: c.settings})
		}()
	}
}

package generics_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

type narrow struct {
	ID    int64  `db:"id" json:"id"`
	Name  string `db:"name" json:"name"`
	Score int    `db:"score" json:"score"`
}

type wide struct {
	ID  int64     `db:"id" json:"id"`
	S1  string    `db:"s1" json:"s1"`
	S2  string    `db:"s2" json:"s2"`
	S3  string    `db:"s3" json:"s3"`
	S4  string    `db:"s4" json:"s4"`
	S5  string    `db:"s5" json:"s5"`
	S6  string    `db:"s6" json:"s6"`
	I1  int       `db:"i1" json:"i1"`
	I2  int32     `db:"i2" json:"i2"`
	I3  int64     `db:"i3" json:"i3"`
	I4  uint      `db:"i4" json:"i4"`
	I5  int8      `db:"i5" json:"i5"`
	I6  int16     `db:"i6" json:"i6"`
	B1  bool      `db:"b1" json:"b1"`
	B2  bool      `db:"b2" json:"b2"`
	B3  bool      `db:"b3" json:"b3"`
	F1  float64   `db:"f1" json:"f1"`
	F2  float32   `db:"f2" json:"f2"`
	F3  float64   `db:"f3" json:"f3"`
	T1  time.Time `db:"t1" json:"t1"`
	T2  time.Time `db:"t2" json:"t2"`
	T3  time.Time `db:"t3" json:"t3"`
	P1  *string   `db:"p1" json:"p1"`
	P2  *int      `db:"p2" json:"p2"`
	P3  *bool     `db:"p3" json:"p3"`
	P4  *float64  `db:"p4" json:"p4"`
	P5  *string   `db:"p5" json:"p5"`
	N1  string    `db:"n1" json:"n1"`
	N2  int       `db:"n2" json:"n2"`
	N3  string    `db:"n3" json:"n3"`
	Pad string    `db:"pad" json:"-"`
}

const benchItems = 20

func narrowView() http.Handler {
	items := make([]narrow, benchItems)
	for i := range items {
		items[i] = narrow{ID: int64(i + 1), Name: fmt.Sprintf("item %d", i), Score: i * 7}
	}
	return framework.NewAPI(nil, framework.Settings{}).Handler(generics.ListAPIView(generics.GenericAPIView[narrow]{
		Source: queryset.MustSlice(items), Serializer: serializers.MustNew[narrow](),
	}))
}

func wideView() http.Handler {
	items := make([]wide, benchItems)
	s, n := "text", 5
	for i := range items {
		t := time.Date(2024, 1, 1, i, 0, 0, 123000, time.UTC)
		items[i] = wide{ID: int64(i + 1), S1: "a", S2: "b\"c", S3: "é", S4: "d", S5: "e", S6: "f",
			I1: i, I2: 2, I3: 3, I4: 4, I5: 5, I6: 6, B1: true, F1: 1.5, F2: 2, F3: 1e20,
			T1: t, T2: t, T3: t, P1: &s, P2: &n, N1: "x", N2: 9, N3: "y"}
	}
	return framework.NewAPI(nil, framework.Settings{}).Handler(generics.ListAPIView(generics.GenericAPIView[wide]{
		Source: queryset.MustSlice(items), Serializer: serializers.MustNew[wide](),
	}))
}

func serve(v http.Handler) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/items/", nil))
	return w
}

// BenchmarkListSliceSource is a list request of 20 items over a slice
// source, for a model of 3 and of 30 fields: allocations per request are
// the same, as reflection happens at setup only.
func BenchmarkListSliceSource(b *testing.B) {
	for _, c := range []struct {
		name string
		view http.Handler
	}{{"fields=3", narrowView()}, {"fields=30", wideView()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if w := serve(c.view); w.Code != 200 {
					b.Fatal(w.Code, w.Body)
				}
			}
		})
	}
}

// TestAllocationsDoNotGrowWithFields checks what the benchmark shows: a
// model ten times wider costs no more allocations per list request beyond
// the growth of the larger output.
func TestAllocationsDoNotGrowWithFields(t *testing.T) {
	n, w := narrowView(), wideView()
	if code := serve(w).Code; code != 200 {
		t.Fatal(code)
	}
	narrowAllocs := testing.AllocsPerRun(50, func() { serve(n) })
	wideAllocs := testing.AllocsPerRun(50, func() { serve(w) })
	if wideAllocs > narrowAllocs+3 {
		t.Errorf("allocations per request: %v with 3 fields, %v with 30", narrowAllocs, wideAllocs)
	}
}

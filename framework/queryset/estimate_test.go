package queryset

import (
	"context"
	"testing"
	"time"
)

// TestEstimateCount: the Estimator counts the unfiltered source (not
// exact), a filtered one is counted exactly, and without an Estimator
// every count is exact.
func TestEstimateCount(t *testing.T) {
	db := openItems(t)
	ctx := context.Background()
	cached := MustSQL[item](db, SQLConfig{Query: itemsQuery, Estimator: CachedCount(CountTable("items"), time.Hour)})
	if n, exact, err := cached.EstimateCount(ctx); n != 5 || exact || err != nil {
		t.Fatalf("estimate %d %v %v", n, exact, err)
	}
	if _, err := db.Exec(`INSERT INTO "items" VALUES (6, 'f', 1, NULL, NULL, 1)`); err != nil {
		t.Fatal(err)
	}
	if n, exact, _ := cached.EstimateCount(ctx); n != 5 || exact {
		t.Errorf("cached estimate %d %v, want the first count", n, exact)
	}
	if n, exact, _ := cached.Filter("score", "3").(Estimator).EstimateCount(ctx); n != 2 || !exact {
		t.Errorf("filtered: %d %v", n, exact)
	}
	plain := MustSQL[item](db, SQLConfig{Query: itemsQuery})
	if n, exact, _ := plain.EstimateCount(ctx); n != 6 || !exact {
		t.Errorf("no estimator: %d %v", n, exact)
	}
}

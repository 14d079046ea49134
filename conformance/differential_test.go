package conformance

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/testservers"
)

var (
	diffSeeds = flag.String("diff.seeds", "1,2,3", "the differential fuzzer's seeds, comma-separated")
	diffN     = flag.Int("diff.n", 1000, "the differential fuzzer's requests per seed and database")
	diffDB    = flag.String("diff.db", "sqlite,postgresql", "the databases the differential fuzzer runs the sample on")
)

// TestDifferential sends requests drawn at random from the contract to the
// DRF 3.14 reference and to the sample at that level (then, fewer, to DRF
// 3.18 and the sample with its defaults), and fails on any difference of status,
// the headers clients use or the JSON body that docs/drf-differences.md
// does not list. Each seed's requests go in two phases: reads (books are
// never changed) on one pair of servers, then requests that also create,
// change and delete books on a fresh pair, so that both databases keep the
// same ids. Differences are grouped into buckets (route, method, what
// differs); the first request of each bucket of the reading phase is
// shrunk to the smallest that still differs the same way.
//
// go test ./conformance -run Differential -diff.seeds=1,2,3,4,5,6,7,8,9,10 -diff.n=3000
func TestDifferential(t *testing.T) {
	var seeds []uint64
	for _, s := range strings.Split(*diffSeeds, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			t.Fatalf("-diff.seeds: %v", err)
		}
		seeds = append(seeds, n)
	}
	for _, db := range strings.Split(*diffDB, ",") {
		var dsn func(t *testing.T) string
		switch db {
		case "sqlite":
			dsn = func(t *testing.T) string { return filepath.Join(t.TempDir(), "db.sqlite3") }
		case "postgresql":
			dsn = func(t *testing.T) string { return testservers.Postgres(t) }
		default:
			t.Fatalf("-diff.db: unknown database %q", db)
		}
		t.Run(db, func(t *testing.T) { fuzz(t, drf314, dsn, seeds, *diffN) })
	}
	// A smaller run of the default sample against DRF 3.18 on Django 5.2:
	// SQLite, the seed after the last, a quarter of the requests.
	t.Run("drf318", func(t *testing.T) {
		fuzz(t, drf318, func(t *testing.T) string { return filepath.Join(t.TempDir(), "db.sqlite3") },
			[]uint64{slices.Max(seeds) + 1}, max(*diffN/4, 1))
	})
}

// fuzz runs the seeds' requests, n per seed, in both phases against a
// fresh oracle o and the sample at its level on databases dsn gives, and
// reports the differences.
func fuzz(t *testing.T, o oracle, dsn func(t *testing.T) string, seeds []uint64, n int) {
	run := &fuzzRun{buckets: map[string]*bucket{}}
	for _, writes := range []bool{false, true} {
		ref := startOracle(t, o)
		run.sides = [2]*side{newSide("reference", ref.base), newSide("sample", startSampleAt(t, dsn(t), o))}
		run.writes = writes
		for _, seed := range seeds {
			g := newGenerator(seed, writes)
			k := n * 3 / 4
			if writes {
				k = n - k
			}
			for range k {
				run.compare(t, g.next())
			}
		}
	}
	run.report(t)
}

// fuzzRun is one database's run: the pair of servers of the current phase
// and the buckets of differences found so far.
type fuzzRun struct {
	sides   [2]*side
	writes  bool
	sent    int
	buckets map[string]*bucket
	order   []string
}

// bucket is one kind of difference: the route, the method and what
// differs (the statuses, the names of the headers, the body).
type bucket struct {
	key     string
	count   int
	first   fuzzRequest
	diffs   []string
	excused string // the id of the deliberate difference, "" if none
	shrunk  *fuzzRequest
	sdiffs  []string
}

// exchange sends f to both sides and returns their comparable answers; a
// side that gives no answer shows as status 0.
func (run *fuzzRun) exchange(t *testing.T, f fuzzRequest) [2]view {
	var views [2]view
	for i, s := range run.sides {
		a, err := s.sendRaw(f.raw())
		if err != nil {
			t.Logf("%s: %v", s.name, err)
			views[i] = view{headers: map[string]string{}, body: "<no answer>"}
			continue
		}
		views[i] = s.view(a)
	}
	run.sent++
	return views
}

// compare sends f to both sides and files a difference in its bucket.
func (run *fuzzRun) compare(t *testing.T, f fuzzRequest) {
	views := run.exchange(t, f)
	alignWaits(&views)
	d := differences(views[0], views[1])
	if len(d) == 0 {
		return
	}
	key := bucketKey(f, d, views)
	b := run.buckets[key]
	if b == nil {
		b = &bucket{key: key, first: f, diffs: d, excused: excuse(f, views, d)}
		run.buckets[key] = b
		run.order = append(run.order, key)
		if !run.writes && b.excused == "" {
			run.shrink(t, b)
		}
	}
	b.count++
}

// bucketKey names the kind of a difference.
func bucketKey(f fuzzRequest, d []string, views [2]view) string {
	method := f.method
	if !slices.Contains([]string{"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"}, method) {
		method = "(extension)"
	}
	var what []string
	for _, line := range d {
		kind, _, _ := strings.Cut(line, ":")
		if kind == "status" {
			kind = fmt.Sprintf("status %d/%d", views[0].status, views[1].status)
		}
		what = append(what, kind)
	}
	return method + " " + f.route + ": " + strings.Join(what, ", ")
}

// shrink takes parts away from the bucket's first request, one at a time,
// for as long as what remains differs the same way.
func (run *fuzzRun) shrink(t *testing.T, b *bucket) {
	cur, tries := b.first, 0
	for changed := true; changed && tries < 40; {
		changed = false
		for _, smaller := range reductions(cur) {
			tries++
			views := run.exchange(t, smaller)
			alignWaits(&views)
			if d := differences(views[0], views[1]); len(d) > 0 && bucketKey(smaller, d, views) == b.key {
				cur, b.sdiffs, changed = smaller, d, true
				break
			}
		}
	}
	if b.sdiffs != nil {
		b.shrunk = &cur
	}
}

// reductions lists f without one of its parts: a query parameter, a
// header, the body, the cookies.
func reductions(f fuzzRequest) []fuzzRequest {
	var out []fuzzRequest
	for i := range f.query {
		g := f
		g.query = slices.Delete(slices.Clone(f.query), i, i+1)
		out = append(out, g)
	}
	for i := range f.header {
		g := f
		g.header = slices.Delete(slices.Clone(f.header), i, i+1)
		out = append(out, g)
	}
	if f.body != "" {
		g := f
		g.body = ""
		out = append(out, g)
	}
	if f.jar != "" {
		g := f
		g.jar = ""
		out = append(out, g)
	}
	return out
}

// report logs every bucket and fails on those no deliberate difference
// explains.
func (run *fuzzRun) report(t *testing.T) {
	var excused, failed []string
	for _, key := range run.order {
		b := run.buckets[key]
		if b.excused != "" {
			excused = append(excused, fmt.Sprintf("%5d× %s (deliberate: %s)", b.count, key, b.excused))
			continue
		}
		failed = append(failed, key)
		msg := fmt.Sprintf("%d× %s\n  first: %s\n  %s", b.count, key, b.first.raw(), strings.Join(b.diffs, "\n  "))
		if b.shrunk != nil {
			msg += fmt.Sprintf("\n  shrunk to: %s\n  %s", b.shrunk.raw(), strings.Join(b.sdiffs, "\n  "))
		}
		t.Errorf("the sample differs from the reference, outside docs/drf-differences.md:\n%s", msg)
	}
	t.Logf("%d requests to each side; %d buckets of differences, %d deliberate:\n%s",
		run.sent, len(run.order), len(excused), strings.Join(excused, "\n"))
}

// alignWaits takes a throttle's wait of one second more or less on the
// sample's side as the reference's: each side reckons the wait from when it
// saw the requests, and the sample sees each a few milliseconds after the
// reference, so that rounding up to whole seconds may differ by one.
func alignWaits(views *[2]view) {
	ref, ours := views[0].headers["Retry-After"], views[1].headers["Retry-After"]
	a, errA := strconv.Atoi(ref)
	b, errB := strconv.Atoi(ours)
	if errA != nil || errB != nil || a == b || a-b > 1 || b-a > 1 {
		return
	}
	views[1].headers["Retry-After"] = ref
	views[1].body = strings.Replace(views[1].body, "available in "+ours+" second", "available in "+ref+" second", 1)
}

package queryset_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// atomicNote is a row of the notes table of TestWritesJoinAnAtomicBlock.
type atomicNote struct {
	ID   int64  `db:"id"`
	Text string `db:"text"`
}

// TestWritesJoinAnAtomicBlock: an SQLSource's Insert, Update,
// UpdateChanged and Delete made with the context of its Atomic block are
// in the block's transaction, on SQLite's one connection of an in-memory
// database as on PostgreSQL: a block that fails leaves the table as it
// was, one that succeeds keeps them all, and a write read back in the
// block sees the block's earlier writes.
func TestWritesJoinAnAtomicBlock(t *testing.T) {
	tables := map[store.Dialect]string{
		store.SQLite:     `CREATE TABLE "notes" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "text" varchar(20) NOT NULL)`,
		store.PostgreSQL: `CREATE TABLE "notes" ("id" serial NOT NULL PRIMARY KEY, "text" varchar(20) NOT NULL)`,
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		db.MustExec(tables[store.DialectOf(db)])
		db.MustExec(`INSERT INTO "notes" ("text") VALUES ('kept'), ('gone')`)
		src := queryset.MustSQL[atomicNote](db, queryset.SQLConfig{Table: "notes"})
		var block queryset.Atomicer = src
		texts := func() []string {
			var out []string
			if err := db.Select(&out, `SELECT "text" FROM "notes" ORDER BY "id"`); err != nil {
				t.Fatal(err)
			}
			return out
		}
		writes := func(ctx context.Context) error {
			n := &atomicNote{Text: "new"}
			if err := src.Insert(ctx, n); err != nil {
				return err
			}
			kept := &atomicNote{ID: 1, Text: "changed"}
			if err := src.Update(ctx, kept); err != nil {
				return err
			}
			before, after := *kept, *kept
			if err := src.UpdateChanged(ctx, &before, &after); err != nil {
				return err
			}
			if after.Text != "changed" {
				t.Errorf("read back in the block: %q, want the block's own write", after.Text)
			}
			return src.Delete(ctx, &atomicNote{ID: 2})
		}
		refused := errors.New("refused")
		err := block.Atomic(context.Background(), func(ctx context.Context) error {
			if err := writes(ctx); err != nil {
				return err
			}
			return refused
		})
		if !errors.Is(err, refused) {
			t.Fatalf("Atomic: %v, want the block's own error", err)
		}
		if got := texts(); len(got) != 2 || got[0] != "kept" || got[1] != "gone" {
			t.Fatalf("after a failed block: %v, want [kept gone]", got)
		}
		if err := block.Atomic(context.Background(), writes); err != nil {
			t.Fatal(err)
		}
		if got := texts(); len(got) != 2 || got[0] != "changed" || got[1] != "new" {
			t.Errorf("after a block: %v, want [changed new]", got)
		}
	})
}

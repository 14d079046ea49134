// Command counted shows the "exact and cheap" count strategy of the load
// benchmark (bench/run): the sample's /pages/page-number/ view, built with
// the framework exactly as the sample builds it, over a books source whose
// unfiltered count is the row count kept by triggers
// (queryset.RowCounter) instead of SELECT COUNT(*) on every request. The
// answers are the sample's; only the cost of counting differs.
//
//	counted [-addr 127.0.0.1:8003] DATABASE
//
// DATABASE is the sample's (manage migrate and seed); counted adds the
// counter table and its triggers to it when they are missing.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/browsable"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// booksCounter keeps the number of books.
var booksCounter = queryset.RowCounter{Table: "books"}

func main() {
	addr := flag.String("addr", "127.0.0.1:8003", "address to listen on")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: counted [-addr HOST:PORT] DATABASE")
		os.Exit(2)
	}
	db, err := store.Open(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := migrations.Migrate(context.Background(), db, booksCounter.Migration("bench", "0001_books_rowcount")); err != nil {
		log.Fatal(err)
	}
	books, err := queryset.NewSQL[sample.Book](db, queryset.SQLConfig{
		Table: "books",
		Query: `SELECT b."id", b."title", b."author", b."rating", b."created", b."owner_id", b."cover", u."username" AS "owner__username" ` +
			`FROM "books" b JOIN "auth_user" u ON u."id" = b."owner_id"`,
		Ordering: []query.Order{{Field: "id"}},
		Counter:  booksCounter,
	})
	if err != nil {
		log.Fatal(err)
	}
	users := &auth.Users{DB: db}
	api := framework.NewAPI(db, framework.Settings{
		Authentication: framework.Authenticators(
			authentication.Session{Sessions: &sessions.Manager{DB: db, Users: users, SecretKey: "bench-only-secret-key"}},
			authentication.Token{Tokens: &authtoken.Tokens{DB: db}},
			authentication.Basic{Users: auth.ModelBackend{Users: users}},
		),
		PageSize:  10,
		Renderers: framework.Renderers(framework.JSONRenderer{}, browsable.Renderer{}),
	})
	api.Handle("/pages/page-number/", generics.ListAPIView(generics.GenericAPIView[sample.Book]{
		View: framework.View{Name: "Page Number List",
			Pagination: &pagination.PageNumberPagination{PageSize: 5, PageSizeQueryParam: "page_size", MaxPageSize: 20}},
		Source:     books,
		Serializer: serializers.MustNew[sample.Book](),
	}))
	log.Printf("framework with a trigger-kept count on http://%s/ (database %s)", *addr, flag.Arg(0))
	log.Fatal(http.ListenAndServe(*addr, framework.SecurityHeaders(api)))
}

package serializers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// host is a model of two GenericIPAddressFields of one protocol each.
type host struct {
	ID   int64   `db:"id" json:"id"`
	V4   string  `db:"v4" json:"v4" model:"field=GenericIPAddressField,protocol=IPv4"`
	V6   *string `db:"v6" json:"v6" model:"field=GenericIPAddressField,protocol=ipv6,blank"`
	Both *string `db:"both" json:"both" model:"field=GenericIPAddressField"`
}

func (host) Meta() models.Meta { return models.Meta{App: "net", Name: "Host"} }

// A GenericIPAddressField's protocol, behind generic views on SQLite and
// PostgreSQL (an inet column): DRF 3.18 checks an IPv4 field with
// Django's validate_ipv4_address and an IPv6 one with
// validate_ipv6_address, in their words, and cleans an IPv6 address
// without unpacking an IPv4-mapped one; DRF 3.14 reads every field as
// one of "both" and runs the model field's validator first. The rows
// hold what the answers show.
func TestIPAddressProtocol(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key, ip := "integer NOT NULL PRIMARY KEY AUTOINCREMENT", "char(39)"
		if db.DriverName() != "sqlite3" {
			key, ip = "serial NOT NULL PRIMARY KEY", "inet"
		}
		for _, level := range []framework.Compatibility{framework.DRF318, framework.DRF314} {
			db.MustExec(`DROP TABLE IF EXISTS "net_host"`)
			db.MustExec(`CREATE TABLE "net_host" ("id" ` + key + `, "v4" ` + ip + ` NOT NULL, "v6" ` + ip + ` NULL, "both" ` + ip + ` NULL)`)
			g := generics.GenericAPIView[host]{Source: queryset.MustSQL[host](db, queryset.SQLConfig{}),
				Serializer: serializers.MustNew[host]()}
			api := framework.NewAPI(nil, framework.Settings{Compatibility: level})
			api.Handle("/hosts/", generics.ListCreateAPIView(g))
			c := apitest.New(t, api)
			steps := []struct{ body, want string }{
				{`{"v4":"2001:db8::1","v6":"192.0.2.1"}`, `400 {"v4":["Enter a valid IPv4 address."],"v6":["Enter a valid IPv6 address."]}`},
				{`{"v4":"192.0.2.1","v6":"2001:DB8:0::1","both":"::ffff:192.0.2.2"}`, `201 {"id":1,"v4":"192.0.2.1","v6":"2001:db8::1","both":"192.0.2.2"}`},
				{`{"v4":"10.0.0.1","v6":"1::2::3"}`, `400 {"v6":["Enter a valid IPv4 or IPv6 address."]}`},
			}
			if level == framework.DRF318 {
				steps = append(steps,
					struct{ body, want string }{`{"v4":"nope","v6":"nope"}`, `400 {"v4":["Enter a valid IPv4 address."],"v6":["Enter a valid IPv6 address."]}`},
					struct{ body, want string }{`{"v4":"10.0.0.1","v6":"::ffff:192.0.2.3"}`, `201 {"id":2,"v4":"10.0.0.1","v6":"::ffff:192.0.2.3","both":null}`})
			} else {
				steps = append(steps,
					struct{ body, want string }{`{"v4":"nope","v6":"nope"}`, `400 {"v4":["Enter a valid IPv4 address.","Enter a valid IPv4 or IPv6 address."],` +
						`"v6":["Enter a valid IPv6 address.","Enter a valid IPv4 or IPv6 address."]}`},
					struct{ body, want string }{`{"v4":"10.0.0.1","v6":"::ffff:192.0.2.3"}`, `400 {"v6":["Enter a valid IPv6 address."]}`})
			}
			for _, step := range steps {
				r := c.Post("/hosts/", step.body, "Content-Type: application/json")
				if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
					t.Errorf("%v: POST %s: %s, want %s", level, step.body, got, step.want)
				}
			}
			var stored []struct {
				V4 string  `db:"v4"`
				V6 *string `db:"v6"`
			}
			if err := db.Select(&stored, `SELECT "v4", "v6" FROM "net_host" ORDER BY "id"`); err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, r := range stored {
				rows = append(rows, r.V4, *r.V6)
			}
			want := "[192.0.2.1 2001:db8::1 10.0.0.1 ::ffff:192.0.2.3]"
			if level == framework.DRF314 {
				want = "[192.0.2.1 2001:db8::1]"
			}
			if got := fmt.Sprint(rows); got != want {
				t.Errorf("%v: rows %s, want %s", level, got, want)
			}
		}
	})
}

// hostNotIP and hostBadProtocol misdeclare a protocol.
type (
	hostNotIP struct {
		ID   int64  `db:"id" json:"id"`
		Name string `db:"name" json:"name" model:"max_length=10,protocol=IPv4"`
	}
	hostBadProtocol struct {
		ID   int64  `db:"id" json:"id"`
		Addr string `db:"addr" json:"addr" model:"field=GenericIPAddressField,protocol=IPv5"`
	}
)

func (hostNotIP) Meta() models.Meta       { return models.Meta{App: "net", Name: "NotIP"} }
func (hostBadProtocol) Meta() models.Meta { return models.Meta{App: "net", Name: "BadProtocol"} }

// A protocol is refused at setup off a GenericIPAddressField, or when it
// is none of Django's, naming the field.
func TestIPAddressProtocolMisconfigured(t *testing.T) {
	_, notIP := serializers.New[hostNotIP]()
	_, bad := serializers.New[hostBadProtocol]()
	for _, c := range []struct {
		err  error
		want []string
	}{
		{notIP, []string{"hostNotIP.Name", "protocol needs a GenericIPAddressField"}},
		{bad, []string{"hostBadProtocol.Addr", "protocol=IPv5 is none of both, IPv4, IPv6"}},
	} {
		for _, w := range c.want {
			if c.err == nil || !strings.Contains(c.err.Error(), w) {
				t.Errorf("%v, want %q in it", c.err, w)
			}
		}
	}
}

// ticket is a model whose auto key a client may set (DRF's
// extra_kwargs={'id': {'read_only': False, 'required': False}}).
type ticket struct {
	ID    int64  `db:"id" json:"id" drf:"read_only=false,required=false"`
	Title string `db:"title" json:"title" model:"max_length=20"`
}

func (ticket) Meta() models.Meta { return models.Meta{App: "desk", Name: "Ticket"} }

// ticketMaybe gives a flag a value that is no boolean.
type ticketMaybe struct {
	ID int64 `db:"id" json:"id" drf:"read_only=maybe"`
}

func (ticketMaybe) Meta() models.Meta { return models.Meta{App: "desk", Name: "TicketMaybe"} }

// read_only=false over an auto primary key, behind generic views on
// SQLite and PostgreSQL: OPTIONS lists the key as writable and optional,
// a POST that sends it creates the row of that key (Django's
// create(pk=...)), one that does not gets the key the database numbers,
// and a key that is no integer is DRF's 400. A flag's value that is no
// boolean is a setup error naming the field.
func TestWritableAutoKey(t *testing.T) {
	if _, err := serializers.New[ticketMaybe](); err == nil || !strings.Contains(err.Error(), `ticketMaybe.ID: bad drf tag option "read_only=maybe"`) {
		t.Errorf("read_only=maybe: %v", err)
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "bigserial NOT NULL PRIMARY KEY"
		}
		db.MustExec(`CREATE TABLE "desk_ticket" ("id" ` + key + `, "title" varchar(20) NOT NULL)`)
		g := generics.GenericAPIView[ticket]{Source: queryset.MustSQL[ticket](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[ticket]()}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/tickets/", generics.ListCreateAPIView(g))
		c := apitest.New(t, api)
		opts := c.Do("OPTIONS", "/tickets/", "")
		id, _ := opts.JSON()["actions"].(map[string]any)["POST"].(map[string]any)["id"].(map[string]any)
		if got := fmt.Sprint(id); got != "map[label:ID read_only:false required:false type:integer]" {
			t.Errorf("OPTIONS id: %s", got)
		}
		for _, step := range []struct{ body, want string }{
			{`{"title":"numbered"}`, `201 {"id":1,"title":"numbered"}`},
			{`{"id":40,"title":"set"}`, `201 {"id":40,"title":"set"}`},
			{`{"id":"x","title":"bad"}`, `400 {"id":["A valid integer is required."]}`},
		} {
			r := c.Post("/tickets/", step.body, "Content-Type: application/json")
			if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != step.want {
				t.Errorf("POST %s: %s, want %s", step.body, got, step.want)
			}
		}
		var rows []string
		if err := db.Select(&rows, `SELECT CAST("id" AS text) || ' ' || "title" FROM "desk_ticket" ORDER BY "id"`); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rows); got != "[1 numbered 40 set]" {
			t.Errorf("rows %s", got)
		}
	})
}

// shelf and volume are a model and one of its foreign keys nested in a
// HyperlinkedModelSerializer of depth=1, with its many-to-many rows.
type (
	shelf struct {
		ID   int64  `db:"id" json:"-"`
		Name string `db:"name" json:"name" model:"max_length=20"`
	}
	label struct {
		ID   int64  `db:"id" json:"-"`
		Text string `db:"text" json:"text" model:"max_length=20"`
	}
	volume struct {
		ID      int64   `db:"id" json:"-"`
		Title   string  `db:"title" json:"title" model:"max_length=20"`
		ShelfID *int64  `db:"shelf_id" json:"-" model:"foreign_key=lib_shelf,on_delete=set_null"`
		Shelf   shelf   `json:"shelf"`
		Labels  []label `json:"labels" model:"many_to_many=lib_label"`
	}
)

func (shelf) Meta() models.Meta  { return models.Meta{App: "lib", Name: "Shelf"} }
func (label) Meta() models.Meta  { return models.Meta{App: "lib", Name: "Label"} }
func (volume) Meta() models.Meta { return models.Meta{App: "lib", Name: "Volume"} }

// A HyperlinkedModelSerializer's nested rows (depth=1) behind generic
// views, on SQLite and PostgreSQL: the item and each nested object have
// their own url first, the link to its model's detail route, as DRF's
// HyperlinkedModelSerializer nests HyperlinkedModelSerializers; a null
// foreign key is null; OPTIONS (FieldInfo) lists the nested url.
func TestNestedHyperlinked(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		key := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
		if db.DriverName() != "sqlite3" {
			key = "bigserial NOT NULL PRIMARY KEY"
		}
		for _, stmt := range []string{
			`CREATE TABLE "lib_shelf" ("id" ` + key + `, "name" varchar(20) NOT NULL)`,
			`CREATE TABLE "lib_label" ("id" ` + key + `, "text" varchar(20) NOT NULL)`,
			`CREATE TABLE "lib_volume" ("id" ` + key + `, "title" varchar(20) NOT NULL, "shelf_id" bigint NULL REFERENCES "lib_shelf" ("id"))`,
			`CREATE TABLE "lib_volume_labels" ("id" ` + key + `, "volume_id" bigint NOT NULL REFERENCES "lib_volume" ("id"), ` +
				`"label_id" bigint NOT NULL REFERENCES "lib_label" ("id"), UNIQUE ("volume_id", "label_id"))`,
			`INSERT INTO "lib_shelf" ("name") VALUES ('top'), ('low')`,
			`INSERT INTO "lib_label" ("text") VALUES ('red'), ('blue')`,
			`INSERT INTO "lib_volume" ("title", "shelf_id") VALUES ('Go', 2), ('Loose', NULL)`,
			`INSERT INTO "lib_volume_labels" ("volume_id", "label_id") VALUES (1, 1), (1, 2)`,
		} {
			db.MustExec(stmt)
		}
		g := generics.GenericAPIView[volume]{Source: queryset.MustSQL[volume](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[volume](serializers.Hyperlinked())}
		api := framework.NewAPI(nil, framework.Settings{})
		api.Handle("/volumes/", generics.ListAPIView(g))
		api.Handle("/volumes/{pk}/", generics.RetrieveAPIView(g), framework.Named("volume-detail"))
		shelves := generics.GenericAPIView[shelf]{Source: queryset.MustSQL[shelf](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[shelf]()}
		labels := generics.GenericAPIView[label]{Source: queryset.MustSQL[label](db, queryset.SQLConfig{}), Serializer: serializers.MustNew[label]()}
		api.Handle("/shelves/{pk}/", generics.RetrieveAPIView(shelves), framework.Named("shelf-detail"))
		api.Handle("/labels/{pk}/", generics.RetrieveAPIView(labels), framework.Named("label-detail"))
		c := apitest.New(t, api)
		r := c.Get("/volumes/")
		want := `[{"url":"http://testserver/volumes/1/","title":"Go","shelf":{"url":"http://testserver/shelves/2/","name":"low"},` +
			`"labels":[{"url":"http://testserver/labels/1/","text":"red"},{"url":"http://testserver/labels/2/","text":"blue"}]},` +
			`{"url":"http://testserver/volumes/2/","title":"Loose","shelf":null,"labels":[]}]`
		if got := fmt.Sprintf("%d %s", r.Status, r.Body); got != "200 "+want {
			t.Errorf("GET /volumes/: %s, want 200 %s", got, want)
		}
		if info := string(g.Serializer.FieldInfo()); !strings.Contains(info, `"children":{"url":{"type":"field","required":false,"read_only":true,"label":"Url"}`) {
			t.Errorf("FieldInfo: %s", info)
		}
	})
}

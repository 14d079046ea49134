// Command mismatch must not compile: a generic view of one model given a
// source of another (TestSourceOfAnotherModelDoesNotCompile).
package main

import (
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

type book struct {
	ID int `db:"id" json:"id"`
}

type author struct {
	ID int `db:"id" json:"id"`
}

func main() {
	books := queryset.MustSlice([]book{{ID: 1}})
	generics.ListAPIView(generics.GenericAPIView[author]{Source: books, Serializer: serializers.MustNew[author]()})
}

package mailmsg

// The round trip through the reply reader (roundtrip_test.go, package
// mailmsg_test: mailfmt imports this package) composes with these.
var (
	ReplyOut      = replyOut
	GoldenReferee = goldenReferee
	QuoteLines    = quoteLines
)

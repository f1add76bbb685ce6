# The Makefile is the single entry point; CI (.ci/run) only calls it.
GO      ?= go
PKGS    ?= ./...
FUZZTIME ?= 20s

.PHONY: all build demo test test-plain content check fmt fmt-check vet staticcheck race bench fuzz cover clean help

all: check ## Same as check.

build: ## Build the referee binary into bin/.
	$(GO) build -o bin/referee ./cmd/referee

demo: ## Run the embedded demo: bots play every game by mail on loopback (DEMO_ARGS="--human you@example.test").
	@echo "make demo: compiling the referee into bin/referee first; on a small machine the first"
	@echo "           compile takes a minute or more, and nothing else prints until it is done."
	@$(GO) build -o bin/referee ./cmd/referee
	@echo "make demo: compiled; starting bin/referee demo $(DEMO_ARGS)"
	@./bin/referee demo $(DEMO_ARGS)

test: check ## Run the whole test suite (what CI runs).

check: fmt-check vet staticcheck race content ## gofmt + go vet + staticcheck + tests with -race + the whole-game content checks.

fmt: ## Format the code.
	gofmt -w $$(git ls-files '*.go')

fmt-check: ## Fail if any file needs gofmt.
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet: ## go vet.
	$(GO) vet $(PKGS)

staticcheck: ## staticcheck (a tool dependency in go.mod; checks in staticcheck.conf).
	$(GO) tool staticcheck $(PKGS)

race: ## Tests with the race detector, in random order; lists the skipped tests and why at the end.
	@bash -o pipefail -c '$(GO) test -race -shuffle=on -timeout 20m -json $(PKGS) | $(GO) run ./cmd/testreport'

content: ## The whole-game content checks (mail width, reader's words, no data ids) without -race: under it they are skipped (one goroutine each, ten times slower, nothing to detect).
	$(GO) test -count=1 -timeout 20m -run '^(TestEveryMailOfWholeGamesFits|TestEveryWordInTheReadersLanguage|TestBrewCraftersMailsCarryNoDataID|TestHeavenAleMailsCarryNoInternalCode|TestReaderBotPlaysWholeGames_Issue22|TestEveryOptionReachable_Issue22|TestGoldenDiceBrewingMenus|TestGoldenGroupedMenus_Issue22|TestTellReadsNothingBack_Issue25|TestReaderReceiptSeeds_Issue22|TestEveryMailAndPageNamesWhoHeldTheSeat_Issue24|TestTournamentThousandSwissToTheEnd|TestHelpEveryCodeAMailShows_Issue22|TestEveryAnswerFormIsPlayed|TestMenusAsShownArePlayed|TestHeavenAleMenuLinesAsShownArePlayed|TestBrewCraftersMenusInWords|TestScriptedDiceBrewingMailFigures|TestBrewCraftersMenusInTheReadersWords|TestWhoMustActIsWhoHoldsTheSeat_Issue24|TestEveryLineNamesTheSeatsHolder_Issue24)$$' ./referee/
	$(GO) test -count=1 -timeout 20m -run '^(TestScriptedBotsPlayTheDecidingBotsGames)$$' ./referee/tools/bench/
	$(GO) test -count=1 -timeout 20m -run '^(TestMenuLinesNameTheSeatsHolder_Issue24)$$' ./referee/tell/
	$(GO) test -count=1 -timeout 20m -run '^(TestMoveWritesTheDepthOfItsTrees_Issue25)$$' ./store/
	$(GO) test -count=1 -timeout 20m -run '^(TestPlayerAnswerNamesUnreadLines_Issue25)$$' ./referee/edge/mailin/
	$(GO) test -count=1 -timeout 20m -run '^(TestKeptTextFoundWithoutAllocating_Issue25)$$' ./templates/
	$(GO) test -count=1 -timeout 20m -run '^(TestTablesMiddleCertified_Issue24|TestTablesOldRoundsReplay_Issue24|TestTablesNoRematchAtLarge_Issue24|TestTablesCrowdedDrawsPinned_Issue24)$$' ./referee/tournament/

test-plain: ## The same tests with go test's own output (no skip report).
	$(GO) test -race -shuffle=on -timeout 20m $(PKGS)

bench: ## Benchmarks: end to end (referee bench; BENCH_ARGS="--real" for Dovecot+Postfix), then the Go micro-benchmarks.
	$(GO) run ./cmd/referee bench $(BENCH_ARGS)
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

fuzz: ## Run every fuzz target for FUZZTIME each.
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

cover: ## Coverage report in cover.out.
	$(GO) test -coverprofile=cover.out $(PKGS) && $(GO) tool cover -func=cover.out | tail -1

clean: ## Remove build output.
	rm -rf bin cover.out

help: ## List the targets.
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/'

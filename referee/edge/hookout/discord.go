package hookout

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee"
)

// DiscordLimit is the most characters Discord accepts in a message's
// content ("content: the message contents (up to 2000 characters)", Discord
// developer documentation, Webhook resource, Execute Webhook).
const DiscordLimit = 2000

// discordMessage is the body of Discord's Execute Webhook call.
type discordMessage struct {
	Content string `json:"content"`
	// AllowedMentions with an empty parse list: a player's chat line saying
	// "@everyone" must not ping a whole server.
	AllowedMentions struct {
		Parse []string `json:"parse"`
	} `json:"allowed_mentions"`
}

// discordBody turns a generic payload into a Discord message.
func discordBody(payload []byte) ([]byte, error) {
	var p referee.HookPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, fmt.Errorf("payload is not a hook payload: %w", err)
	}
	m := discordMessage{Content: DiscordContent(p)}
	m.AllowedMentions.Parse = []string{}
	return json.Marshal(m)
}

// DiscordContent renders a payload as the text of one Discord message: a
// title line, the lines, who the game waits for and the result. A text
// longer than DiscordLimit characters is cut: whole lines while they fit,
// then as much of the next line as fits (ending in "…"), then a last line
// saying how many lines were left out.
func DiscordContent(p referee.HookPayload) string {
	out := truncateRunes(fmt.Sprintf("**%s** · %s · %s", oneLine(p.Title), p.Game, p.Status), 200)
	var lines []string
	for _, l := range p.Lines {
		lines = append(lines, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
	}
	if len(p.Waiting) > 0 {
		lines = append(lines, "Waiting for: "+strings.Join(p.Waiting, ", "))
	}
	if p.Result != nil {
		lines = append(lines, resultLine(p))
	}
	runes := utf8.RuneCountInString
	for i, l := range lines {
		after := moreLines(len(lines) - i - 1)
		if runes(out)+1+runes(l)+runes(after) <= DiscordLimit {
			out += "\n" + l
			continue
		}
		if room := DiscordLimit - runes(out) - 1 - runes(after) - 1; room >= 40 {
			return out + "\n" + truncateRunes(l, room) + "…" + after
		}
		return out + moreLines(len(lines)-i)
	}
	return out
}

// moreLines is the note ending a cut message ("" for none).
func moreLines(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "\n… 1 more line not shown"
	}
	return fmt.Sprintf("\n… %d more lines not shown", n)
}

func truncateRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// resultLine renders the final ranking: "Result: 1. Ann 12 · 2. Bob 9".
func resultLine(p referee.HookPayload) string {
	type row struct{ rank, seat, total int }
	var rows []row
	for i, sc := range p.Result.Scores {
		r := row{rank: i + 1, seat: sc.Seat, total: sc.Total}
		if sc.Seat >= 0 && sc.Seat < len(p.Result.Rank) {
			r.rank = p.Result.Rank[sc.Seat]
		}
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].rank < rows[b].rank })
	parts := make([]string, 0, len(rows))
	for _, r := range rows {
		name := fmt.Sprintf("seat %d", r.seat)
		if r.seat >= 0 && r.seat < len(p.Players) {
			name = p.Players[r.seat]
		}
		parts = append(parts, fmt.Sprintf("%d. %s %d", r.rank, name, r.total))
	}
	return "Result: " + strings.Join(parts, " · ")
}

package templates

import "github.com/pbem-referee/referee/engine"

// The data of game templates. Every template receives a Ctx; its Data field
// holds one of these (or the engine's own types) depending on the name:
//
//	summary          Ctx.Data = the game's view (State.View(seat))
//	prompt.<kind>    Ctx.Data = PromptData
//	option.<kind>    Ctx.Data = OptionData (one line per numbered option;
//	                 optional: without it the option's command is shown)
//	event.<type>     Ctx.Data = engine.Event (already redacted for the reader)
//	error.<code>     Ctx.Data = *engine.RuleError
//	help, help.<CMD> Ctx.Data = nil
//	rule.<id>        Ctx.Data = nil
//
// The referee lays a mail out as: the prompt (what the reader must do now,
// with an example), the numbered options if any, the summary, then the log of
// events since the reader's last mail.

// PromptData is the question a seat is asked, with its own view for context.
type PromptData struct {
	engine.Prompt
	View any
}

// OptionData is one numbered option of a prompt, with the reader's view
// (a game's view may describe each option: its cost and effect, issue 22).
//
// A game that defines "option.group" groups a long menu by kind of action:
// the template renders, for one option, its group's rank and heading
// separated by a tab ("2\tWorkers: hired for good"); the menu lists the
// groups by rank, each under its heading, one option a line, the numbers
// unchanged. A third field "columns" ("1\tMH1 Malt House: ...\tcolumns")
// lays the group's short lines side by side, as many as fit in Width
// (Dice Brewing's placements, issue 22). Lines after the menu come from "option.legend" (the codes the
// menu uses, explained once).
//
// Rule (issue 25): option.group is a function of the option's Group and
// Params, the decision and the view, never of N or the option's Cmd: the
// menu renders it once per group and params, not once per option
// (tell.Renderer.Prompt; TestMenuHeadsSharedAsRenderedEach_Issue25
// compares with every option rendered, in random games of every game).
// A heading that reads the view only by the option's group ({{index
// $.Data.View.F .Data.Option.Group}}: Dice Brewing's View.Heads) is kept
// from one mail to the next as well (Tmpl.Keyed). A game may define
// "option.group.<kind>" for the menus of one kind of decision (found
// before option.group): a heading that reads neither the option's params
// nor its command (Reads.Params, Reads.Cmd) is rendered once per group in
// a menu and kept by its group alone (issue 25: Heaven & Ale's
// option.group.move reads the menu's length by group, View.MenuLen;
// referee/tell's TestMenuRenderedAgainFindsEveryLineKept_Issue25).
type OptionData struct {
	N        int // 1-based number the player may reply with
	Option   engine.Option
	Decision engine.Decision
	View     any
}

/** Side effects read from the members' wording (extract/contract.ts): what counts as a cue. */
import { describe, expect, it } from 'vitest';
import { sideEffects } from '../../src/extract/contract.js';
import { parentOf } from '../helpers/skill.js';

// One member that declares nothing: the wording alone decides.
const parent = parentOf('s', '---\nname: s\ndescription: d\n---\n# S\n\nText.\n');
const member = { unit: parent.units[0]!, parent };
const kinds = (prose: string) => sideEffects([member], [], [prose], false).map((s) => `${s.kind} ${s.evidence}`);

describe('sideEffects from wording', () => {
  it('reads a terminal as a place to run commands, not any terminal', () => {
    expect(kinds('Paste the line in your terminal and press enter.')).toEqual(['subprocess wording: "in your terminal"']);
    expect(kinds('Open a terminal first.')).toEqual(['subprocess wording: "Open a terminal"']);
    expect(kinds('Type the terminal commands below.')).toEqual(['subprocess wording: "terminal commands"']);
    expect(kinds('Connect the red wire to terminal 2 of the battery.')).toEqual([]);
    expect(kinds('The episode ends in a terminal state.')).toEqual([]);
  });

  it('keeps the other cues', () => {
    expect(kinds('Run the script, then it saves the report.').sort()).toEqual(['filesystem wording: "saves"', 'subprocess wording: "Run the script"']);
  });
});

// A v1 prompt refused for a node class (or an input name) the suite chose is the suite's input
// refused, "setup refused ...; set scenario input <name>", never a rule broken; any other
// refusal is left for the rule under test to judge (lib/v1/setup.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promptSetupRefusal } from '../../lib/v1/setup.ts';
import { saveWorkflow, v1Classes, withInputNames, inputNamesOf } from '../../lib/v1/workflows.ts';

const scenario = { empty_image_class: 'BlankImage', slow_node_class: 'Sleep' };
const prompt = saveWorkflow(v1Classes(scenario), 'unit');

test("the prompt names the target's classes, from the scenario inputs (public names by default)", () => {
  assert.equal(prompt['1'].class_type, 'BlankImage');
  assert.equal(prompt['2'].class_type, 'SaveImage');
});

test('an unknown-class refusal of a class the suite chose names its input', () => {
  const body = {
    error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation' },
    node_errors: {
      '1': { class_type: 'BlankImage', errors: [{ type: 'unknown_node_class', message: 'no such class' }] },
    },
  };
  const refused = promptSetupRefusal(400, body, prompt, scenario);
  assert.ok(refused);
  assert.match(refused.message, /setup refused: .*BlankImage.*set scenario input empty_image_class/);
});

test("the engine's own words naming the class as missing count too (ComfyUI's invalid_prompt message)", () => {
  const body = {
    error: {
      type: 'invalid_prompt',
      message: 'Cannot execute because node SaveImage does not exist.',
      details: 'Node ID #2',
    },
    node_errors: {},
  };
  assert.match(String(promptSetupRefusal(400, body, prompt, scenario)?.message), /set scenario input save_image_class/);
});

test('a required input the engine calls otherwise names node_input_names', () => {
  const body = {
    error: { type: 'prompt_outputs_failed_validation', message: 'x' },
    node_errors: {
      '2': {
        class_type: 'SaveImage',
        errors: [{ type: 'required_input_missing', message: 'Required input is missing: pictures' }],
      },
    },
  };
  assert.match(String(promptSetupRefusal(400, body, prompt, scenario)?.message), /set scenario input node_input_names/);
});

test("other refusals are not the setup: they stay the rule's to judge", () => {
  assert.equal(
    promptSetupRefusal(
      400,
      { error: { type: 'invalid_prompt', message: 'the account has no credits' }, node_errors: {} },
      prompt,
      scenario,
    ),
    undefined,
  );
  assert.equal(promptSetupRefusal(500, { error: 'Node class SaveImage does not exist' }, prompt, scenario), undefined);
  // A class no input chose (one a check sends on purpose to be unknown) is not the suite's setup.
  const own = { '1': { class_type: 'ConformanceNoSuchNode', inputs: {} } };
  assert.equal(
    promptSetupRefusal(
      200,
      {
        error: { type: 'x', message: 'unknown node class ConformanceNoSuchNode' },
        node_errors: {
          '1': { class_type: 'ConformanceNoSuchNode', errors: [{ type: 'unknown_node_class', message: 'x' }] },
        },
      },
      own,
      scenario,
    ),
    undefined,
  );
});

test('node_input_names renames the inputs of the classes it names, and only those', () => {
  const renamed = withInputNames(prompt, inputNamesOf({ node_input_names: { SaveImage: { images: 'pictures' } } }));
  assert.deepEqual(Object.keys(renamed['2'].inputs).sort(), ['filename_prefix', 'pictures']);
  assert.deepEqual(renamed['1'], prompt['1']);
  assert.throws(() => inputNamesOf({ node_input_names: { SaveImage: 'pictures' } }), /node_input_names/);
});

// Scenario inputs a target running under a control of the embedded reference sets: a control
// that changes what the suite must be told (an engine whose node classes have other names)
// comes with the inputs a user of such a server would write in targets.yaml. The fixtures
// merge them into the target's scenario when the embedded reference runs that control
// (fixtures/test.ts), so the control's run shows the suite green once the inputs are set.
// The suite does not import the reference: the reference reads its names from here.
import type { Surface } from './families.ts';

/** The v1-renamed-classes control: the engine's own names of the public engine's core classes. */
export const RENAMED_CLASSES: Readonly<Record<string, string>> = {
  LoadImage: 'ImageFromInputFile',
  EmptyImage: 'BlankImage',
  ImageInvert: 'InvertColours',
  SaveImage: 'ImageSaveOutput',
  PreviewImage: 'ImagePreviewTemp',
};

const CONTROL_INPUTS: Readonly<Record<string, Partial<Record<Surface, Readonly<Record<string, unknown>>>>>> = {
  'v1-renamed-classes': {
    cloud: {
      load_image_class: RENAMED_CLASSES.LoadImage,
      empty_image_class: RENAMED_CLASSES.EmptyImage,
      invert_image_class: RENAMED_CLASSES.ImageInvert,
      save_image_class: RENAMED_CLASSES.SaveImage,
      preview_image_class: RENAMED_CLASSES.PreviewImage,
      // The reference's preview-frame node is its preview class.
      preview_frame_node_class: RENAMED_CLASSES.PreviewImage,
    },
  },
};

/** The inputs a control adds to one surface's scenario (none for most controls). */
export function controlInputs(control: string | undefined, surface: Surface): Readonly<Record<string, unknown>> {
  return (control && CONTROL_INPUTS[control]?.[surface]) || {};
}

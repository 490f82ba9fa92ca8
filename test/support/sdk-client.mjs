// The official client package (@comfyorg/sdk, Node 22 or later) as a user's script drives
// it, run by test/e2e/passive-proxy.test.ts under Node 22 with the passive proxy in front of
// the embedded reference. `v2`: an uploaded image through the assets flow, inverted by a
// job the SDK submits and polls to its end. `router`: one models.run. Prints one JSON line.
import { Comfy, comfy } from '@comfyorg/sdk';

const [mode, pngBase64] = process.argv.slice(2);
const key = process.env.SDK_KEY;
if (mode === 'v2') {
  const client = new Comfy({ apiKey: key });
  const asset = client.assets.fromBytes(Buffer.from(pngBase64, 'base64'), {
    name: 'passive-in.png',
    contentType: 'image/png',
  });
  const wf = client.workflows.fromJson({
    1: { class_type: 'LoadImage', inputs: { image: null } },
    2: { class_type: 'ImageInvert', inputs: { image: ['1', 0] } },
    3: { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'passive-sdk' } },
  });
  wf.setInput('1', 'image', asset);
  const job = await client.run(wf);
  console.log(JSON.stringify({ status: job.status, outputs: job.getOutputs('3').length }));
} else if (mode === 'router') {
  comfy.config({ credentials: key, baseUrl: process.env.SDK_ROUTER_URL });
  const { data, requestId } = await comfy.models.run(
    process.env.SDK_MODEL,
    { prompt: 'a lighthouse at dusk' },
    { retry: false },
  );
  console.log(JSON.stringify({ requestId, data }));
} else {
  throw new Error(`unknown mode ${mode}`);
}

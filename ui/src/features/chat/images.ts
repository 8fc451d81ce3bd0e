// Images for a message: read from pasted, dropped or picked files, checked against what
// the engine accepts (it checks again: this only saves a round trip).
import type { ImageInput } from "../../gen/protocol";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const MAX_IMAGES = 8;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface ImageProblem {
  name: string;
  reason: string;
}

function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? "");
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

/**
 * The images among `files` that may be added to `current`, and why the others may not
 * (not an image, too large, too many).
 */
export async function readImages(
  files: readonly File[],
  current: number,
): Promise<{ images: ImageInput[]; problems: ImageProblem[] }> {
  const images: ImageInput[] = [];
  const problems: ImageProblem[] = [];
  for (const file of files) {
    const name = file.name || "pasted image";
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      problems.push({ name, reason: "not a PNG, JPEG, GIF or WebP image" });
      continue;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      problems.push({ name, reason: `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB` });
      continue;
    }
    if (current + images.length >= MAX_IMAGES) {
      problems.push({ name, reason: `a message takes at most ${MAX_IMAGES} images` });
      continue;
    }
    try {
      const data = await readAsBase64(file);
      images.push(file.name ? { media_type: file.type, data, name: file.name } : { media_type: file.type, data });
    } catch (error) {
      problems.push({ name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { images, problems };
}

export function imageUrl(image: ImageInput): string {
  return `data:${image.media_type};base64,${image.data}`;
}

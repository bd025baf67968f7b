/** Side of the stored avatar (seed 002 §5 and §9: 512x512 JPEG). */
const AVATAR_SIZE = 512;

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('cropToJpeg: the image could not be decoded; pick a JPEG or PNG file.'));
    image.src = src;
  });
}

/** Draws `area` of the image scaled to size×size and answers a JPEG data URL. */
export async function cropToJpeg(src: string, area: PixelArea, size = AVATAR_SIZE, quality = 0.9): Promise<string> {
  const image = await loadImage(src);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('cropToJpeg: this browser has no 2D canvas.');
  // JPEG has no transparency: paint white under transparent PNGs instead of black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size, size);
  return canvas.toDataURL('image/jpeg', quality);
}

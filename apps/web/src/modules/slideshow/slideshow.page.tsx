import { Center, Text } from '@mantine/core';

/** Public slideshow (spec 3 §2.9); built by its own issue. */
export function SlideshowPage() {
  return (
    <Center h="100vh">
      <Text>NO IMAGES AVAILABLE</Text>
    </Center>
  );
}

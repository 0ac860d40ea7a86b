import { Center, Loader } from '@mantine/core';

/** Shown in the shell while a screen's chunk loads (first visit only). */
export function PageLoader() {
  return (
    <Center h="60vh" data-testid="page-loader">
      <Loader />
    </Center>
  );
}

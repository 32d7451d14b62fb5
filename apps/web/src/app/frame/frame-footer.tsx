import { ActionIcon, Group, Text } from '@mantine/core';
import { IconBrandFacebook, IconBrandGithub, IconBrandLinkedin, IconBrandX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const SOCIAL = [
  { label: 'GitHub', href: 'https://github.com/', Icon: IconBrandGithub },
  { label: 'Facebook', href: 'https://www.facebook.com/', Icon: IconBrandFacebook },
  { label: 'X (Twitter)', href: 'https://x.com/', Icon: IconBrandX },
  { label: 'LinkedIn', href: 'https://www.linkedin.com/', Icon: IconBrandLinkedin },
];

/** Credit, the year 2018, and social links. */
export function FrameFooter() {
  const { t } = useTranslation();
  return (
    <Group component="footer" justify="space-between" className="fc-footer" px="md" py="sm" gap="xs">
      <Text size="sm" c="dimmed">
        {t('FOOTER_CREDIT')} {t('FOOTER_YEAR')}
      </Text>
      <Group gap={4} component="nav" aria-label="Social links">
        {SOCIAL.map(({ label, href, Icon }) => (
          <ActionIcon
            key={label}
            component="a"
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            variant="subtle"
            color="gray"
            aria-label={label}
          >
            <Icon size={18} />
          </ActionIcon>
        ))}
      </Group>
    </Group>
  );
}

// Postback URLs (spec 4 §2, §7, §8): the installation's postback and pixel URLs with each
// affiliate network's click-id macro in place, one-click copy ('Copied to Clipboard.' /
// 'Error Occurred.'), and the network's setup video in a dialog (title, url, type, id).
import { Copy, PlayCircle, Webhook } from 'lucide-react';
import { useState } from 'react';
import {
  CONNECTION_MESSAGES as M,
  type PostbackUrlsAnswer,
  type PostbackVideo,
} from '../../../../schema/connections-api';
import { useApi } from '../../api/hooks';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { Modal } from '../../components/modal';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../styles/integrations.css';

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(M.copied);
  } catch {
    notify.error(M.copyFailed);
  }
}

function UrlLine({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="postback-line">
      <span className="postback-label">{label}</span>
      <code className="postback-url" data-testid={testId}>
        {value}
      </code>
      <Button
        size="sm"
        icon={<Copy size={14} aria-hidden />}
        onClick={() => void copy(value)}
        aria-label={`Copy ${label.toLowerCase()}`}
      >
        Copy
      </Button>
    </div>
  );
}

function VideoDialog({ video, onClose }: { video: PostbackVideo | null; onClose: () => void }) {
  return (
    <Modal open={video !== null} title={video?.title ?? ''} onClose={onClose} size="lg">
      {video && (
        // biome-ignore lint/a11y/useMediaCaption: the operator's own setup recordings carry no captions file
        <video
          className="postback-video"
          src={video.url}
          controls
          data-video-id={video.id}
          data-video-type={video.type}
        />
      )}
    </Modal>
  );
}

export function PostbackUrlsScreen() {
  useDocumentTitle('Postback URLs');
  const { data, error, isLoading } = useApi<PostbackUrlsAnswer>('postback-urls', {
    revalidateOnFocus: false,
  });
  const [video, setVideo] = useState<PostbackVideo | null>(null);

  return (
    <div className="page postback-page">
      <PageHeader
        title="Postback URLs"
        description="Give your affiliate network the postback URL (server to server) or the pixel URL (thank-you page). Each already carries the network's click-id macro."
      />
      {isLoading ? (
        <p className="integration-loading">
          <Spinner size={16} /> Loading…
        </p>
      ) : error || !data ? (
        <EmptyState icon={Webhook} title="Postback URLs could not be loaded">
          Reload the page; if it keeps failing, check the base URL in Settings.
        </EmptyState>
      ) : data.length === 0 ? (
        <EmptyState icon={Webhook} title="No affiliate networks">
          No affiliate network is configured.
        </EmptyState>
      ) : (
        <div className="postback-list">
          {data.map((row) => (
            <Card
              key={row.network}
              title={row.label}
              description={`Click id travels in ${row.param}; the network fills ${row.macro}.`}
              actions={
                row.video ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<PlayCircle size={16} aria-hidden />}
                    onClick={() => setVideo(row.video)}
                  >
                    Watch setup video
                  </Button>
                ) : undefined
              }
            >
              <div className="postback-lines" data-network={row.network}>
                <UrlLine label="Postback URL" value={row.postback_url} testId={`postback-${row.network}`} />
                <UrlLine label="Pixel URL" value={row.pixel_url} testId={`pixel-${row.network}`} />
              </div>
            </Card>
          ))}
        </div>
      )}
      <VideoDialog video={video} onClose={() => setVideo(null)} />
    </div>
  );
}
